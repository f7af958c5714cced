// Compiled as if it were a file of libge/runtime (ge_runtime's include path
// and links): the runtime loads plans and never compiles, so this must fail.
#include "ge/compiler.h"
