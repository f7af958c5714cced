// The float32 <-> bfloat16 loops (bf16_convert.h) on every ISA this CPU
// runs, bit for bit against the scalar functions of ge_base/bfloat16.h, and
// the Cast kernel that uses them.
#include "kernels/bf16_convert.h"

#include <cstring>
#include <limits>
#include <random>

#include "ge_base/bfloat16.h"
#include "tests/unit/kernels/kernel_test_util.h"

namespace ge::test {
namespace {

using hal::Isa;

float FromBits(uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

// Random bit patterns (every class: NaNs with payloads, infinities,
// denormals, both zeros) and the rounding edges: ties to even either way,
// the largest float (rounds to inf), the first NaN above inf.
std::vector<float> Bf16Probe(size_t n) {
  std::vector<float> x;
  for (uint32_t b : {0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7f800001u, 0xffc00000u, 0x7fffffffu,
                     0x3f808000u, 0x3f818000u, 0x3f807fffu, 0x3f808001u, 0x7f7fffffu, 0x00000001u, 0x807fffffu})
    x.push_back(FromBits(b));
  std::mt19937 rng(7);
  while (x.size() < n) x.push_back(FromBits(static_cast<uint32_t>(rng())));
  x.resize(n);
  return x;
}

TEST(Bf16Convert, EveryIsaMatchesTheScalarRoundingBitForBit) {
  // Empty, tails only, vectors plus tails, and sizes split over the threads.
  for (size_t n : {size_t{0}, size_t{5}, size_t{14}, size_t{16}, size_t{33}, size_t{1000}, size_t{70003}}) {
    const std::vector<float> x = Bf16Probe(n);
    for (bool truncate : {false, true}) {
      for (Isa isa : hal::AvailableIsas()) {
        std::vector<uint16_t> y(n, 0xdead);
        hal::bf16::FromFloat(x.data(), y.data(), static_cast<int64_t>(n), truncate, isa);
        for (size_t i = 0; i < n; ++i)
          ASSERT_EQ(y[i], FloatToBFloat16(x[i], truncate))
              << hal::IsaName(isa) << (truncate ? " truncating" : " rounding") << ", value " << i << " of " << n;
      }
    }
  }
}

TEST(Bf16Convert, WideningIsExactOnEveryIsa) {
  for (size_t n : {size_t{0}, size_t{3}, size_t{8}, size_t{17}, size_t{65537}}) {
    std::vector<uint16_t> x(n);
    for (size_t i = 0; i < n; ++i) x[i] = static_cast<uint16_t>(i * 2654435761u >> 7);
    for (Isa isa : hal::AvailableIsas()) {
      std::vector<float> y(n, -1.0f);
      hal::bf16::ToFloat(x.data(), y.data(), static_cast<int64_t>(n), isa);
      for (size_t i = 0; i < n; ++i) {
        uint32_t bits;
        std::memcpy(&bits, &y[i], 4);
        ASSERT_EQ(bits, static_cast<uint32_t>(x[i]) << 16) << hal::IsaName(isa) << ", value " << i;
      }
    }
  }
}

TEST(Bf16Convert, CastKernelRoundsBothWays) {
  const std::vector<float> x = Bf16Probe(4099);
  const std::vector<int64_t> dims = {1, static_cast<int64_t>(x.size())};
  hal::Attrs to_bf16;
  to_bf16.Set("to", int64_t{16});
  auto narrow = RunKernel("Cast", to_bf16, {HostTensor::F32(dims, x)}, {hal::TensorInfo{DataType::kBFloat16, dims}});
  ASSERT_TRUE(narrow.ok()) << narrow.status().ToString();
  const std::vector<uint16_t> y = (*narrow)[0].as<uint16_t>();
  for (size_t i = 0; i < x.size(); ++i) ASSERT_EQ(y[i], FloatToBFloat16(x[i])) << "value " << i;

  hal::Attrs to_f32;
  to_f32.Set("to", int64_t{1});
  auto widen = RunKernel("Cast", to_f32, {HostTensor::Of(DataType::kBFloat16, dims, y)},
                         {hal::TensorInfo{DataType::kFloat32, dims}});
  ASSERT_TRUE(widen.ok()) << widen.status().ToString();
  const std::vector<uint32_t> back = (*widen)[0].as<uint32_t>();
  for (size_t i = 0; i < x.size(); ++i) ASSERT_EQ(back[i], static_cast<uint32_t>(y[i]) << 16) << "value " << i;
}

}  // namespace
}  // namespace ge::test
