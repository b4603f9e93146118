// The SHA-256 compression function on the x86 SHA extensions. Only this file is built with -msha -msse4.1;
// Sha256 calls it only after CPUID reports the extensions.
#include <immintrin.h>

#include "db/model/sha256_blocks.h"

namespace flopscope {

void sha256_ni_blocks(std::uint32_t state[8], const std::uint8_t* data, std::size_t blocks) {
  // The instructions keep the state as (A,B,E,F) and (C,D,G,H), most significant lane first.
  __m128i dcba = _mm_loadu_si128(reinterpret_cast<const __m128i*>(state));
  __m128i hgfe = _mm_loadu_si128(reinterpret_cast<const __m128i*>(state + 4));
  __m128i cdab = _mm_shuffle_epi32(dcba, 0xB1);
  __m128i efgh = _mm_shuffle_epi32(hgfe, 0x1B);
  __m128i abef = _mm_alignr_epi8(cdab, efgh, 8);
  __m128i cdgh = _mm_blend_epi16(efgh, cdab, 0xF0);
  const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);
  for (std::size_t b = 0; b < blocks; ++b, data += 64) {
    __m128i w[16];
    for (int j = 0; j < 4; ++j) {
      w[j] = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(data + 16 * j)), bswap);
    }
    // Message schedule, four words at a time: W[t] = s1(W[t-2]) + W[t-7] + s0(W[t-15]) + W[t-16].
    for (int j = 4; j < 16; ++j) {
      __m128i t =
          _mm_add_epi32(_mm_sha256msg1_epu32(w[j - 4], w[j - 3]), _mm_alignr_epi8(w[j - 1], w[j - 2], 4));
      w[j] = _mm_sha256msg2_epu32(t, w[j - 1]);
    }
    const __m128i abef_in = abef, cdgh_in = cdgh;
    for (int j = 0; j < 16; ++j) {
      __m128i msg =
          _mm_add_epi32(w[j], _mm_load_si128(reinterpret_cast<const __m128i*>(kSha256Round + 4 * j)));
      cdgh = _mm_sha256rnds2_epu32(cdgh, abef, msg);
      abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(msg, 0x0E));
    }
    abef = _mm_add_epi32(abef, abef_in);
    cdgh = _mm_add_epi32(cdgh, cdgh_in);
  }
  __m128i feba = _mm_shuffle_epi32(abef, 0x1B);
  __m128i dchg = _mm_shuffle_epi32(cdgh, 0xB1);
  dcba = _mm_blend_epi16(feba, dchg, 0xF0);
  hgfe = _mm_alignr_epi8(dchg, feba, 8);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(state), dcba);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(state + 4), hgfe);
}

}  // namespace flopscope
