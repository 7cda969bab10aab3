/* Inside the function checks (sema_call*.c): the argument helpers they
 * share and the checks each family file gives sema_call.c's table. */
#pragma once
#include "sema.h"

/* argument helpers and fixed result types (sema_call.c) */
Type *sema_call_fixed_type(Sema *s, FuncId id);
bool sema_arg_int(Sema *s, Expr *call, int i);
bool sema_arg_literal_int(Sema *s, Expr *call, int i, int64_t *out);
bool sema_bt_not_literal(Sema *s, Expr *call, Expr *a, const char *want);
bool sema_arg_map(Sema *s, Expr *call, int i, bool keys_allowed);
bool sema_arg_kind(Sema *s, Expr *call, int i, TypeKind k);
bool sema_agg_int_arg(Sema *s, Expr *c, int i);

/* formats (sema_call_fmt.c) */
bool sema_check_format(Sema *s, Expr *call, int first);
bool sema_check_printf(Sema *s, Expr *c);
bool sema_check_system(Sema *s, Expr *c);
bool sema_check_system_d(Sema *s, Expr *c);
bool sema_check_print(Sema *s, Expr *c);
bool sema_check_time(Sema *s, Expr *c);
bool sema_check_strftime(Sema *s, Expr *c);
bool sema_check_join(Sema *s, Expr *c);
bool sema_check_trace(Sema *s, Expr *c);

/* strings and bytes (sema_call_bytes.c) */
bool sema_check_strncmp(Sema *s, Expr *c);
bool sema_check_strcontains(Sema *s, Expr *c);
bool sema_check_bswap(Sema *s, Expr *c);
bool sema_check_strerror(Sema *s, Expr *c);
bool sema_check_pton(Sema *s, Expr *c);
bool sema_check_macaddr(Sema *s, Expr *c);

/* the probe's context and the kernel (sema_call_ctx.c) */
bool sema_check_cgroup_path(Sema *s, Expr *c);
bool sema_bt_wrong_probe(Sema *s, Expr *c);
bool sema_check_reg(Sema *s, Expr *c);
bool sema_check_debugf(Sema *s, Expr *c);
bool sema_check_override(Sema *s, Expr *c);
bool sema_check_signal(Sema *s, Expr *c);
bool sema_check_path(Sema *s, Expr *c);
bool sema_check_skboutput(Sema *s, Expr *c);
bool sema_check_unwatch(Sema *s, Expr *c);
