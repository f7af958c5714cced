// As a file of libge/om: the .om reader validates with ge_plan, not the compiler.
#include "streams/streams.h"
