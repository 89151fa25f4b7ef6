/* SPDX-License-Identifier: GPL-2.0-or-later */
/* User space has no caches to maintain: the fuzzer checks what is read. */
#include "../kshim.h"
