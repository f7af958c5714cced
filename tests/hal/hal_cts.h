// The HAL conformance suite runs against every registered device: each test
// is a TEST_P of a suite derived from HalTest, instantiated over
// hal::DeviceNames() (GE_HAL_CTS_SUITE), and reaches its device through Dev().
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "hal/device.h"

namespace ge::hal {

// The device of the running test (set by HalTest::SetUp).
inline Device*& CurrentDevice() {
  static Device* d = nullptr;
  return d;
}
inline Device& Dev() { return *CurrentDevice(); }

class HalTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    auto d = GetDevice(GetParam());
    ASSERT_TRUE(d.ok()) << d.status().ToString();
    CurrentDevice() = *d;
  }
};

// Suites whose tests run host-callable test kernels on host memory.
class HalHostTest : public HalTest {
 protected:
  void SetUp() override {
    HalTest::SetUp();
    if (!Dev().capabilities().host_memory) GTEST_SKIP() << GetParam() << " has no host-accessible memory";
  }
};

inline std::string DeviceTestName(const ::testing::TestParamInfo<std::string>& info) {
  std::string s;
  for (char c : info.param) s += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return s;
}

}  // namespace ge::hal

// Declares `suite` as a HAL conformance suite run on every registered device.
#define GE_HAL_CTS_SUITE(suite, base)                                                                 \
  class suite : public ::ge::hal::base {};                                                          \
  INSTANTIATE_TEST_SUITE_P(Devices, suite, ::testing::ValuesIn(::ge::hal::DeviceNames()),          \
                           ::ge::hal::DeviceTestName)
