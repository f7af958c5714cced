// CRC-32 (IEEE 802.3, reflected, as zlib). Loading a .om checks every byte
// of the weights (hundreds of megabytes for a transformer), so the bulk runs
// with carry-less multiplication (PCLMULQDQ folding, Intel's "Fast CRC
// Computation for Generic Polynomials Using PCLMULQDQ", the constants as in
// Linux's crc32-pclmul): about 10x the table's speed. The table (slicing by
// 8) does the ends and CPUs without PCLMUL.
#include <array>
#include <cstring>

#if defined(__x86_64__)
#include <immintrin.h>
#define GE_CRC_PCLMUL 1
#endif

#include "ge/om.h"

namespace ge {
namespace {

using Tables = std::array<std::array<uint32_t, 256>, 8>;

Tables MakeTables() {
  Tables t{};
  for (uint32_t i = 0; i < 256; ++i) {
    uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    t[0][i] = c;
  }
  for (uint32_t i = 0; i < 256; ++i)
    for (int s = 1; s < 8; ++s) t[s][i] = (t[s - 1][i] >> 8) ^ t[0][t[s - 1][i] & 0xff];
  return t;
}

const Tables& GetTables() {
  static const Tables tables = MakeTables();
  return tables;
}

// The raw register (no inversion) over n bytes.
uint32_t TableCrc(uint32_t crc, const uint8_t* p, size_t size) {
  const Tables& t = GetTables();
  while (size >= 8) {
    uint32_t lo, hi;
    std::memcpy(&lo, p, 4);
    std::memcpy(&hi, p + 4, 4);
    lo ^= crc;
    crc = t[7][lo & 0xff] ^ t[6][(lo >> 8) & 0xff] ^ t[5][(lo >> 16) & 0xff] ^ t[4][lo >> 24] ^ t[3][hi & 0xff] ^
          t[2][(hi >> 8) & 0xff] ^ t[1][(hi >> 16) & 0xff] ^ t[0][hi >> 24];
    p += 8;
    size -= 8;
  }
  while (size--) crc = t[0][(crc ^ *p++) & 0xff] ^ (crc >> 8);
  return crc;
}

#ifdef GE_CRC_PCLMUL
#define GE_PCLMUL __attribute__((target("pclmul,sse4.1")))

GE_PCLMUL inline __m128i Load(const uint8_t* q) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(q)); }

// x multiplied forward by k's distance, plus the next 16 bytes.
GE_PCLMUL inline __m128i Fold(__m128i x, __m128i k, __m128i next) {
  return _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(x, k, 0x00), _mm_clmulepi64_si128(x, k, 0x11)), next);
}

// The raw register over n bytes, n >= 64 and a multiple of 16: four lanes
// folded 64 bytes at a time, then into one, then Barrett-reduced to 32 bits.
GE_PCLMUL uint32_t PclmulCrc(uint32_t crc, const uint8_t* p, size_t n) {
  const __m128i k1k2 = _mm_set_epi64x(0x1c6e41596, 0x154442bd4);  // x^(4*128+64), x^(4*128) mod P, reflected
  const __m128i k3k4 = _mm_set_epi64x(0x0ccaa009e, 0x1751997d0);  // the same for one 128-bit lane
  const __m128i k5 = _mm_set_epi64x(0, 0x163cd6124);
  const __m128i poly_mu = _mm_set_epi64x(0x1f7011641, 0x1db710641);  // mu, P'
  const __m128i mask32 = _mm_set_epi32(0, 0, 0, -1);
  __m128i x1 = _mm_xor_si128(Load(p), _mm_cvtsi32_si128(static_cast<int>(crc)));
  __m128i x2 = Load(p + 16), x3 = Load(p + 32), x4 = Load(p + 48);
  p += 64;
  n -= 64;
  for (; n >= 64; n -= 64, p += 64) {
    x1 = Fold(x1, k1k2, Load(p));
    x2 = Fold(x2, k1k2, Load(p + 16));
    x3 = Fold(x3, k1k2, Load(p + 32));
    x4 = Fold(x4, k1k2, Load(p + 48));
  }
  x1 = Fold(x1, k3k4, x2);
  x1 = Fold(x1, k3k4, x3);
  x1 = Fold(x1, k3k4, x4);
  for (; n >= 16; n -= 16, p += 16) x1 = Fold(x1, k3k4, Load(p));
  // 128 -> 64 bits (appending 32 zero bits), 64 -> 32, then Barrett.
  x1 = _mm_xor_si128(_mm_srli_si128(x1, 8), _mm_clmulepi64_si128(k3k4, x1, 0x01));
  __m128i x2b = _mm_srli_si128(x1, 4);
  x1 = _mm_xor_si128(_mm_clmulepi64_si128(_mm_and_si128(x1, mask32), k5, 0x00), x2b);
  __m128i t = _mm_clmulepi64_si128(_mm_and_si128(x1, mask32), poly_mu, 0x10);
  t = _mm_clmulepi64_si128(_mm_and_si128(t, mask32), poly_mu, 0x00);
  return static_cast<uint32_t>(_mm_extract_epi32(_mm_xor_si128(t, x1), 1));
}

bool HavePclmul() {
  static const bool have = __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("sse4.1");
  return have;
}
#endif

}  // namespace

uint32_t Crc32(const void* data, size_t size, uint32_t crc) {
  const auto* p = static_cast<const uint8_t*>(data);
  crc = ~crc;
#ifdef GE_CRC_PCLMUL
  if (size >= 64 && HavePclmul()) {
    const size_t bulk = size & ~size_t{15};
    crc = PclmulCrc(crc, p, bulk);
    p += bulk;
    size -= bulk;
  }
#endif
  return ~TableCrc(crc, p, size);
}

}  // namespace ge
