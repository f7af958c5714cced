// As a file of libge/runtime, the compiler's private headers are out of reach
// (this is how the runtime planned unplanned models before the layers).
#include "compiler/memory/memory_planner.h"
