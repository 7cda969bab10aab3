/* The checks of the families still in the core (sema_call_*.c), which
 * sema_call.c's table names; the argument helpers are in builtin.h. */
#pragma once
#include "sema.h"

/* formats (sema_call_fmt.c) */
bool sema_check_printf(Sema *s, Expr *c);
bool sema_check_system(Sema *s, Expr *c);
bool sema_check_print(Sema *s, Expr *c);
bool sema_check_time(Sema *s, Expr *c);
bool sema_check_strftime(Sema *s, Expr *c);
bool sema_check_join(Sema *s, Expr *c);
