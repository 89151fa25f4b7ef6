// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * TEMPORARY during parallel development: weak placeholders so the tree
 * links while the real implementations are being written.  Every real
 * definition overrides these.  This file must be deleted before release.
 */
#include <stdio.h>
#include "axfs_error.h"
#include "axfs_source.h"
#include "axfs_tree.h"
#include "axfs_glob.h"
#include "axfs_profile.h"
#include "axfs_policy.h"
#include "axfs_planner.h"
#include "axfs_packer.h"
#include "axfs_writer.h"
#include "axfs_build.h"
#include "axfs_reader.h"

#define W __attribute__((weak))
#define NI(err) axfs_error_set(err, AXFS_ERR_UNSUPPORTED, "not implemented yet")

W int axfs_source_archive_open(struct axfs_source **o, const char *p, const struct axfs_source_opts *op, struct axfs_error *e) { (void)o; (void)p; (void)op; return NI(e); }
W int axfs_glob_match(const char *p, const char *s) { (void)p; (void)s; return 0; }
W int axfs_glob_check(const char *p, char *w, size_t l) { (void)p; (void)w; (void)l; return 0; }
W void axfs_profile_init(struct axfs_profile *p, const struct axfs_logger *l) { p->v = NULL; p->n = p->cap = 0; p->log = l; }
W int axfs_profile_read(struct axfs_profile *p, const char *f, struct axfs_error *e) { (void)p; (void)f; return NI(e); }
W int axfs_profile_canonicalize(struct axfs_profile *p, struct axfs_error *e) { (void)p; (void)e; return 0; }
W void axfs_profile_free(struct axfs_profile *p) { (void)p; }
W void axfs_policy_init(struct axfs_policy *p) { (void)p; }
W int axfs_policy_load(struct axfs_policy *p, const char *f, struct axfs_error *e) { (void)p; (void)f; return NI(e); }
W int axfs_policy_apply(struct axfs_policy *p, struct axfs_tree *t, const struct axfs_logger *l, struct axfs_error *e) { (void)p; (void)t; (void)l; (void)e; return 0; }
W void axfs_policy_free(struct axfs_policy *p) { (void)p; }
W int axfs_parse_size(const char *s, uint64_t *o, char *w, size_t l) { (void)w; (void)l; unsigned long long v; if (sscanf(s, "%llu", &v) != 1) return -1; *o = v; return 0; }
W int axfs_plan(struct axfs_tree *t, const struct axfs_plan_opts *o, struct axfs_plan_stats *s, struct axfs_error *e) { (void)t; (void)o; (void)s; return NI(e); }
W uint64_t axfs_plan_trim(struct axfs_tree *t, uint64_t m) { (void)t; (void)m; return 0; }
W int axfs_pack_tree(struct axfs_tree *t, struct axfs_source *s, const struct axfs_pack_opts *o, struct axfs_packed *p, struct axfs_error *e) { (void)t; (void)s; (void)o; (void)p; return NI(e); }
W void axfs_packed_free(struct axfs_packed *p) { (void)p; }
