// The ONNX recurrent cells step by step, one batch entry at a time: what
// oneDNN cannot express (other activations, clip, input_forget, per-entry
// sequence lengths) runs here. Gates in ONNX order: LSTM i, o, f, c; GRU
// z, r, h; B is Wb then Rb; P is i, o, f.
#include <algorithm>
#include <cstring>

#include "kernels/rnn_plan.h"

namespace ge::hal::rnn {
namespace {

struct Views {
  const float *x, *w, *r, *b, *h0, *c0, *p;
  float *y, *yh, *yc;
};

// out[g*H + j] = sum_k m[(g*H + j) * k_len + k] * v[k] over all rows.
void MatVec(const float* m, const float* v, int64_t rows, int64_t k_len, float* out) {
  for (int64_t i = 0; i < rows; ++i) {
    const float* row = m + i * k_len;
    float s = 0;
    for (int64_t k = 0; k < k_len; ++k) s += row[k] * v[k];
    out[i] = s;
  }
}

float Clip(const Plan& p, float v) { return p.clip ? std::clamp(v, -*p.clip, *p.clip) : v; }

// One direction of one batch entry over its `len` steps. h and c hold the
// state (initial on entry, last on exit); `tmp` has room for 2*G*H + H.
void RunEntry(const Plan& p, const Views& v, int64_t d, int64_t b, int64_t len, float* h, float* c, float* tmp) {
  const int64_t H = p.hidden, G = p.gates, I = p.input;
  const float* w = v.w + d * G * H * I;
  const float* r = v.r + d * G * H * H;
  const float* wb = v.b ? v.b + d * 2 * G * H : nullptr;
  const float* rb = wb ? wb + G * H : nullptr;
  const float* peep = v.p ? v.p + d * 3 * H : nullptr;
  const bool backward = d == 1 || p.reverse;
  float* xw = tmp;           // X * W^T, G*H
  float* hr = tmp + G * H;   // H * R^T, G*H
  float* aux = hr + G * H;   // H
  // Wb + Rb of gate g, unit j (rb_too false: Wb only, for GRU's split candidate).
  auto bias = [&](int64_t g, int64_t j, bool rb_too = true) {
    return (wb ? wb[g * H + j] : 0.0f) + (rb && rb_too ? rb[g * H + j] : 0.0f);
  };
  for (int64_t s = 0; s < len; ++s) {
    const int64_t t = backward ? len - 1 - s : s;
    MatVec(w, v.x + p.XRow(t, b) * I, G * H, I, xw);
    if (p.cell == Cell::kLstm) {
      MatVec(r, h, G * H, H, hr);
      const Act &f = p.act(d, 0), &g = p.act(d, 1), &ha = p.act(d, 2);
      for (int64_t j = 0; j < H; ++j) {
        auto pre = [&](int64_t gate) { return xw[gate * H + j] + hr[gate * H + j] + bias(gate, j); };
        const float it = Apply(f, Clip(p, pre(0) + (peep ? peep[j] * c[j] : 0)));
        const float ft = p.input_forget ? 1.0f - it : Apply(f, Clip(p, pre(2) + (peep ? peep[2 * H + j] * c[j] : 0)));
        const float ct = Apply(g, Clip(p, pre(3)));
        c[j] = ft * c[j] + it * ct;
        const float ot = Apply(f, Clip(p, pre(1) + (peep ? peep[H + j] * c[j] : 0)));
        aux[j] = ot * Apply(ha, c[j]);
      }
      std::memcpy(h, aux, static_cast<size_t>(H) * sizeof(float));
    } else if (p.cell == Cell::kGru) {
      const Act &f = p.act(d, 0), &g = p.act(d, 1);
      MatVec(r, h, 2 * H, H, hr);  // the z and r rows
      for (int64_t j = 0; j < 2 * H; ++j) hr[j] = Apply(f, Clip(p, xw[j] + hr[j] + bias(j / H, j % H)));
      const float *z = hr, *rt = hr + H;
      const float* rh_w = r + 2 * H * H;
      float* cand = hr + 2 * H;
      if (p.linear_before_reset) {
        MatVec(rh_w, h, H, H, cand);
        for (int64_t j = 0; j < H; ++j)
          cand[j] = xw[2 * H + j] + bias(2, j, false) + rt[j] * (cand[j] + (rb ? rb[2 * H + j] : 0));
      } else {
        for (int64_t j = 0; j < H; ++j) aux[j] = rt[j] * h[j];
        MatVec(rh_w, aux, H, H, cand);
        for (int64_t j = 0; j < H; ++j) cand[j] += xw[2 * H + j] + bias(2, j);
      }
      for (int64_t j = 0; j < H; ++j) h[j] = (1.0f - z[j]) * Apply(g, Clip(p, cand[j])) + z[j] * h[j];
    } else {
      MatVec(r, h, H, H, hr);
      const Act& f = p.act(d, 0);
      for (int64_t j = 0; j < H; ++j) h[j] = Apply(f, Clip(p, xw[j] + hr[j] + bias(0, j)));
    }
    std::memcpy(v.y + p.YRow(t, d, b) * H, h, static_cast<size_t>(H) * sizeof(float));
  }
}

}  // namespace

Status RunReference(const Plan& p, const void* const* in, void* const* out, std::vector<float>& scratch) {
  auto input = [&](Input i) { return p.has[i] ? static_cast<const float*>(in[i]) : nullptr; };
  const int64_t H = p.hidden, G = p.gates;
  const size_t y_size = static_cast<size_t>(p.seq * p.dirs * p.batch * H);
  scratch.resize(static_cast<size_t>(2 * G * H + 3 * H));  // RunEntry's rows, then h and c
  Views v{static_cast<const float*>(in[kX]), input(kW), input(kR), input(kB), input(kInitH), input(kInitC), input(kP),
          static_cast<float*>(out[0]),       p.num_outputs > 1 ? static_cast<float*>(out[1]) : nullptr,
          p.num_outputs > 2 ? static_cast<float*>(out[2]) : nullptr};
  std::fill(v.y, v.y + y_size, 0.0f);  // zero past each entry's end
  std::vector<int64_t> lens;
  ReadLengths(p, p.has[kSeqLens] ? in[kSeqLens] : nullptr, lens);
  for (int64_t b = 0; b < p.batch; ++b)
    if (lens[b] < 0 || lens[b] > p.seq)
      return InvalidArgument("sequence_lens[" + std::to_string(b) + "] is " + std::to_string(lens[b]) +
                             ", outside [0, " + std::to_string(p.seq) + "]");
  float* tmp = scratch.data();
  float* h = tmp + 2 * G * H + H;
  float* c = h + H;
  const size_t row = static_cast<size_t>(H) * sizeof(float);
  for (int64_t d = 0; d < p.dirs; ++d) {
    for (int64_t b = 0; b < p.batch; ++b) {
      const int64_t state = p.StateRow(d, b) * H;
      if (v.h0) std::memcpy(h, v.h0 + state, row);
      else std::fill(h, h + H, 0.0f);
      if (v.c0) std::memcpy(c, v.c0 + state, row);
      else std::fill(c, c + H, 0.0f);
      RunEntry(p, v, d, b, lens[b], h, c, tmp);
      if (v.yh) std::memcpy(v.yh + state, h, row);
      if (v.yc) std::memcpy(v.yc + state, c, row);
    }
  }
  return Status::Ok();
}

}  // namespace ge::hal::rnn
