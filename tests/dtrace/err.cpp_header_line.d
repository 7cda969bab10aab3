/* an error in an #include'd file names the file and its line, as dtrace */
#include "cpp_bad.h"
