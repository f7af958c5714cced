// A 1-D to 3-D sliding window for the plain-loop window kernels (integer
// convolution, MaxPool's loop): the spatial axes right-aligned into
// [d, h, w] (missing axes of size 1), and a walk over the taps of one output
// position that lie inside the input (padding is skipped).
#pragma once

#include <cstdint>
#include <vector>

#include "kernels/dnnl_context.h"

namespace ge::hal {

struct Window3 {
  int64_t in[3] = {1, 1, 1}, out[3] = {1, 1, 1}, k[3] = {1, 1, 1};
  int64_t stride[3] = {1, 1, 1}, dil[3] = {1, 1, 1}, pad[3] = {0, 0, 0};

  Window3() = default;
  Window3(const dnnl_util::Window& w, const std::vector<int64_t>& in_spatial) {
    const size_t sp = in_spatial.size(), off = 3 - sp;
    for (size_t i = 0; i < sp; ++i) {
      in[off + i] = in_spatial[i], out[off + i] = w.out[i], k[off + i] = w.kernel[i];
      stride[off + i] = w.strides[i], dil[off + i] = w.dilations[i], pad[off + i] = w.pad_begin[i];
    }
  }

  int64_t plane() const { return in[0] * in[1] * in[2]; }
  int64_t kernel_volume() const { return k[0] * k[1] * k[2]; }

  // f(id, ih, iw, tap) for each tap of output (od, oh, ow) inside the input,
  // in scan order; tap is the tap's offset in the kernel.
  template <typename F>
  void ForEachTap(int64_t od, int64_t oh, int64_t ow, F&& f) const {
    for (int64_t kd = 0; kd < k[0]; ++kd) {
      const int64_t id = od * stride[0] - pad[0] + kd * dil[0];
      if (id < 0 || id >= in[0]) continue;
      for (int64_t kh = 0; kh < k[1]; ++kh) {
        const int64_t ih = oh * stride[1] - pad[1] + kh * dil[1];
        if (ih < 0 || ih >= in[1]) continue;
        for (int64_t kw = 0; kw < k[2]; ++kw) {
          const int64_t iw = ow * stride[2] - pad[2] + kw * dil[2];
          if (iw < 0 || iw >= in[2]) continue;
          f(id, ih, iw, (kd * k[1] + kh) * k[2] + kw);
        }
      }
    }
  }
};

}  // namespace ge::hal
