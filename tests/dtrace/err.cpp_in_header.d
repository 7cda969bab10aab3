/* a preprocessor error in an included file: gcc's "In file included from" */
#include "cpp_badcall.h"
