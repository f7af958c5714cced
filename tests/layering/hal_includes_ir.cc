// As a file of hal/: the HAL knows no graph.
#include "ge/ir/graph.h"
