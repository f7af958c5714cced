// The headers nearly every test file parses, precompiled once for all test
// binaries (tests/CMakeLists.txt, GE_FAST_TEST_BUILD). Only external and
// standard headers: a change to ge's own headers must not rebuild it.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>
