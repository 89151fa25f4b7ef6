/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Only BIO_MAX_VECS: bdev.c, which submits bios, is not compiled here. */
#include "../kshim.h"
#ifndef BIO_MAX_VECS
#define BIO_MAX_VECS 256
#endif
