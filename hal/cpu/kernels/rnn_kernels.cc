// ONNX LSTM, GRU and RNN. oneDNN's RNN primitives run the default cells
// (LSTM with or without peepholes, GRU as gru_forward or, for
// linear_before_reset=1, lbr_gru_forward, RNN with Tanh, Relu or Sigmoid)
// over full-length sequences; other activations, clip, input_forget and
// shorter sequence_lens take the reference loop (rnn_reference.cc), decided
// per run where sequence_lens is an input.
//
// oneDNN wants weights as ldigo with its own gate order (LSTM i, f, c, o
// where ONNX has i, o, f, c; GRU u, r, o is ONNX's z, r, h) and one summed
// bias per gate (LBR GRU keeps the candidate's two apart). Constant weights
// are packed once at Create, into the layout the primitive chooses;
// weights that are inputs are packed per run into plain ldigo.
#include <algorithm>

#include "cpu_kernels.h"
#include "kernels/dnnl_context.h"
#include "kernels/rnn_plan.h"

namespace ge::hal {
namespace {

using namespace dnnl_util;
using namespace rnn;
using tag = dnnl::memory::format_tag;
using md = dnnl::memory::desc;
using dt = dnnl::memory::data_type;

// ONNX gate of each oneDNN gate.
const std::vector<int64_t>& GateOrder(Cell c) {
  static const std::vector<int64_t> kLstm = {0, 2, 3, 1}, kGru = {0, 1, 2}, kRnn = {0};
  return c == Cell::kLstm ? kLstm : c == Cell::kGru ? kGru : kRnn;
}

bool Is(const Act& a, Act::Kind k) { return a.kind == k; }

// Whether oneDNN computes this plan over full-length sequences.
bool DnnlExpressible(const Plan& p) {
  if (p.clip || p.input_forget) return false;
  for (int64_t d = 0; d < p.dirs; ++d) {
    if (p.cell == Cell::kLstm &&
        !(Is(p.act(d, 0), Act::kSigmoid) && Is(p.act(d, 1), Act::kTanh) && Is(p.act(d, 2), Act::kTanh)))
      return false;
    if (p.cell == Cell::kGru && !(Is(p.act(d, 0), Act::kSigmoid) && Is(p.act(d, 1), Act::kTanh))) return false;
    if (p.cell == Cell::kRnn) {
      const Act::Kind k = p.act(d, 0).kind;
      if ((k != Act::kTanh && k != Act::kRelu && k != Act::kSigmoid) || k != p.act(0, 0).kind) return false;
    }
  }
  return p.seq > 0 && p.batch > 0;
}

dnnl::algorithm VanillaAlgorithm(const Act& a) {
  return a.kind == Act::kRelu      ? dnnl::algorithm::eltwise_relu
         : a.kind == Act::kSigmoid ? dnnl::algorithm::eltwise_logistic
                                   : dnnl::algorithm::eltwise_tanh;
}

// A state tensor ([dirs, batch, hidden], or [batch, dirs, hidden] with
// layout 1) as oneDNN's ldnc dims {1, dirs, batch, hidden}.
md StateDesc(const Plan& p) {
  const int64_t D = p.dirs, N = p.batch, H = p.hidden;
  if (!p.batch_first || D == 1) return md({1, D, N, H}, dt::f32, tag::ldnc);
  return md({1, D, N, H}, dt::f32, dnnl::memory::dims{D * N * H, H, D * H, 1});
}

// What the primitive reads and writes; absent ones are empty descs.
struct RnnDescs {
  md x, y, wl, wi, bias, peep, src_iter, src_iter_c, dst_iter, dst_iter_c;
};

// The oneDNN primitive of the plan's cell, for inference.
std::pair<dnnl::primitive, dnnl::primitive_desc_base> CreatePrimitive(const Plan& p, const RnnDescs& m) {
  const auto dir = p.dirs == 2 ? dnnl::rnn_direction::bidirectional_concat
                   : p.reverse ? dnnl::rnn_direction::unidirectional_right2left
                               : dnnl::rnn_direction::unidirectional_left2right;
  const auto fwd = dnnl::prop_kind::forward_inference;
  const dnnl::primitive_attr attr = ScratchpadAttr();
  if (p.cell == Cell::kLstm) {
    dnnl::lstm_forward::primitive_desc pd(
        dnnl::lstm_forward::desc(fwd, dir, m.x, m.src_iter, m.src_iter_c, m.wl, m.wi, m.peep, m.bias, m.y, m.dst_iter,
                                 m.dst_iter_c),
        attr, Engine());
    return {dnnl::lstm_forward(pd), pd};
  }
  if (p.cell == Cell::kGru && p.linear_before_reset) {
    dnnl::lbr_gru_forward::primitive_desc pd(
        dnnl::lbr_gru_forward::desc(fwd, dir, m.x, m.src_iter, m.wl, m.wi, m.bias, m.y, m.dst_iter), attr, Engine());
    return {dnnl::lbr_gru_forward(pd), pd};
  }
  if (p.cell == Cell::kGru) {
    dnnl::gru_forward::primitive_desc pd(
        dnnl::gru_forward::desc(fwd, dir, m.x, m.src_iter, m.wl, m.wi, m.bias, m.y, m.dst_iter), attr, Engine());
    return {dnnl::gru_forward(pd), pd};
  }
  dnnl::vanilla_rnn_forward::primitive_desc pd(
      dnnl::vanilla_rnn_forward::desc(fwd, VanillaAlgorithm(p.act(0, 0)), dir, m.x, m.src_iter, m.wl, m.wi, m.bias,
                                      m.y, m.dst_iter),
      attr, Engine());
  return {dnnl::vanilla_rnn_forward(pd), pd};
}

class DnnlRnn final : public DnnlKernel {
 public:
  explicit DnnlRnn(const KernelSpec& spec) : DnnlKernel(spec) {}

  Status Init(const KernelSpec& spec, const Plan& p) {
    p_ = p;
    const int64_t T = p.seq, N = p.batch, I = p.input, H = p.hidden, D = p.dirs, G = p.gates;
    const bool lbr = p.cell == Cell::kGru && p.linear_before_reset;
    const tag seq_tag = p.batch_first ? tag::ntc : tag::tnc;
    const md x_md({T, N, I}, dt::f32, seq_tag);
    const md y_md({T, N, D * H}, dt::f32, seq_tag);
    const md wl_plain({1, D, I, G, H}, dt::f32, tag::ldigo), wi_plain({1, D, H, G, H}, dt::f32, tag::ldigo);
    const md bias_md({1, D, lbr ? G + 1 : G, H}, dt::f32, tag::ldgo);
    const bool has_peep = p.cell == Cell::kLstm && p.has[kP];
    const md peep_md = has_peep ? md({1, D, 3, H}, dt::f32, tag::ldgo) : md();
    const md state_md({1, D, N, H}, dt::f32, tag::ldnc);
    const bool lstm = p.cell == Cell::kLstm;
    const bool has_init = p.has[kInitH] || (lstm && p.has[kInitC]);
    const md src_iter = has_init ? state_md : md(), src_iter_c = has_init && lstm ? state_md : md();
    // oneDNN's LSTM takes both final states or neither: Y_c without a
    // consumer in the node goes to a buffer of our own.
    const md dst_iter = p.num_outputs > 1 ? state_md : md(), dst_iter_c = lstm && p.num_outputs > 1 ? state_md : md();

    // Constant weights may be packed the way the primitive likes.
    const_weights_ = spec.ConstInput(kW) && spec.ConstInput(kR) && (!p.has[kB] || spec.ConstInput(kB)) &&
                     (!has_peep || spec.ConstInput(kP));
    const md wl_any = const_weights_ ? md(wl_plain.dims(), dt::f32, tag::any) : wl_plain;
    const md wi_any = const_weights_ ? md(wi_plain.dims(), dt::f32, tag::any) : wi_plain;
    const RnnDescs descs{x_md, y_md, wl_any, wi_any, bias_md, peep_md, src_iter, src_iter_c, dst_iter, dst_iter_c};
    auto [prim, pd] = CreatePrimitive(p, descs);
    LogImpl(spec, "rnn", pd);

    // Weights: ONNX order -> plain ldigo (our loop) -> the primitive's layout.
    wl_plain_ = dnnl::memory(wl_plain, Engine());
    wi_plain_ = dnnl::memory(wi_plain, Engine());
    bias_ = dnnl::memory(bias_md, Engine());
    if (has_peep) peep_ = dnnl::memory(peep_md, Engine());
    const md wl_want = pd.query_md(dnnl::query::weights_md, 0), wi_want = pd.query_md(dnnl::query::weights_md, 1);
    dnnl::memory wl = wl_plain_, wi = wi_plain_;
    std::vector<Step> pack;
    if (wl_want != wl_plain) {
      wl = dnnl::memory(wl_want, Engine());
      pack.push_back(MakeReorder(wl_plain_, wl));
    }
    if (wi_want != wi_plain) {
      wi = dnnl::memory(wi_want, Engine());
      pack.push_back(MakeReorder(wi_plain_, wi));
    }
    if (const_weights_) {
      PackWeights(spec.const_inputs.data());
      GE_RETURN_IF_ERROR(Execute(pack));
      if (dnnl_stream_wait(stream().get()) != dnnl_success) return Internal("oneDNN weight packing failed");
      // The plain copies are not read again once packed.
      if (wl.get() != wl_plain_.get()) wl_plain_ = dnnl::memory();
      if (wi.get() != wi_plain_.get()) wi_plain_ = dnnl::memory();
    } else {
      pack_ = std::move(pack);
    }

    x_ = UserMemory(x_md);
    std::vector<std::pair<int, dnnl::memory>> args = {{DNNL_ARG_SRC_LAYER, x_},     {DNNL_ARG_WEIGHTS_LAYER, wl},
                                                      {DNNL_ARG_WEIGHTS_ITER, wi}, {DNNL_ARG_BIAS, bias_}};
    if (has_peep) args.emplace_back(DNNL_ARG_WEIGHTS_PEEPHOLE, peep_);
    // Y: oneDNN's [T, N, D*H] is ONNX's Y except for layout 0 with two
    // directions, [T, D, N, H]: then a reorder from our own buffer.
    if (!p.batch_first && D == 2) {
      y_user_ = UserMemory(md({T, N, D, H}, dt::f32, dnnl::memory::dims{D * N * H, H, N * H, 1}));
      dnnl::memory y(y_md, Engine());
      args.emplace_back(DNNL_ARG_DST_LAYER, y);
      post_.push_back(MakeReorder(dnnl::memory(md({T, N, D, H}, dt::f32, tag::abcd), Engine(), y.get_data_handle()),
                                  y_user_));
    } else {
      y_user_ = UserMemory(y_md);
      args.emplace_back(DNNL_ARG_DST_LAYER, y_user_);
    }
    // States: direct when the user layout is ldnc, else reordered.
    auto state = [&](int arg, bool in, std::vector<dnnl::memory>& users) {
      dnnl::memory user = UserMemory(StateDesc(p));
      users.push_back(user);
      if (StateDesc(p) == state_md) {
        args.emplace_back(arg, user);
        return;
      }
      dnnl::memory own(state_md, Engine());
      args.emplace_back(arg, own);
      (in ? pre_ : post_).push_back(in ? MakeReorder(user, own) : MakeReorder(own, user));
    };
    if (has_init) {
      // An absent one of initial_h / initial_c is zeros of our own.
      for (auto [arg, input] : {std::pair{DNNL_ARG_SRC_ITER, kInitH}, std::pair{DNNL_ARG_SRC_ITER_C, kInitC}}) {
        if (arg == DNNL_ARG_SRC_ITER_C && !lstm) continue;
        if (p.has[input]) {
          state(arg, true, init_users_);
          init_inputs_.push_back(input);
        } else {
          dnnl::memory zeros(state_md, Engine());
          std::fill_n(static_cast<float*>(zeros.get_data_handle()), D * N * H, 0.0f);
          args.emplace_back(arg, zeros);
        }
      }
    }
    if (p.num_outputs > 1) state(DNNL_ARG_DST_ITER, false, out_users_);
    if (p.num_outputs > 2) state(DNNL_ARG_DST_ITER_C, false, out_users_);
    else if (lstm && p.num_outputs > 1) args.emplace_back(DNNL_ARG_DST_ITER_C, dnnl::memory(state_md, Engine()));
    main_.emplace_back(prim, pd, std::move(args));
    return Status::Ok();
  }

 protected:
  Status RunImpl(const void* const* in, void* const* out) override {
    if (!const_weights_) {
      PackWeights(in);
      GE_RETURN_IF_ERROR(Execute(pack_));
    }
    Bind(x_, in[kX]);
    for (size_t i = 0; i < init_users_.size(); ++i) Bind(init_users_[i], in[init_inputs_[i]]);
    Bind(y_user_, out[0]);
    for (size_t j = 0; j < out_users_.size(); ++j) Bind(out_users_[j], out[j + 1]);
    GE_RETURN_IF_ERROR(Execute(pre_));
    GE_RETURN_IF_ERROR(Execute(main_));
    return Execute(post_);
  }

 private:
  // W, R, B and P (ONNX layouts and gate order) into the plain oneDNN
  // weights, bias and peephole memories.
  void PackWeights(const void* const* in) {
    const Plan& p = p_;
    const int64_t H = p.hidden, G = p.gates, D = p.dirs;
    const std::vector<int64_t>& order = GateOrder(p.cell);
    auto transpose = [&](const float* src, int64_t k_len, float* dst) {  // [D][G*H][K] -> [D][K][G][H]
      for (int64_t d = 0; d < D; ++d)
        for (int64_t g = 0; g < G; ++g)
          for (int64_t o = 0; o < H; ++o) {
            const float* row = src + ((d * G + order[g]) * H + o) * k_len;
            float* col = dst + d * k_len * G * H + g * H + o;
            for (int64_t k = 0; k < k_len; ++k) col[k * G * H] = row[k];
          }
    };
    transpose(static_cast<const float*>(in[kW]), p.input, static_cast<float*>(wl_plain_.get_data_handle()));
    transpose(static_cast<const float*>(in[kR]), H, static_cast<float*>(wi_plain_.get_data_handle()));
    const float* b = p.has[kB] ? static_cast<const float*>(in[kB]) : nullptr;
    float* bias = static_cast<float*>(bias_.get_data_handle());
    const bool lbr = p.cell == Cell::kGru && p.linear_before_reset;
    const int64_t bg = lbr ? G + 1 : G;
    for (int64_t d = 0; d < D; ++d)
      for (int64_t g = 0; g < bg; ++g)
        for (int64_t o = 0; o < H; ++o) {
          // LBR GRU: gate 2 takes Wb_h alone, the extra gate 3 Rb_h.
          const int64_t src = g < G ? order[g] : 2;
          const float* wb = b ? b + d * 2 * G * H : nullptr;
          const float w_part = wb && !(lbr && g == 3) ? wb[src * H + o] : 0.0f;
          const float r_part = wb && !(lbr && g == 2) ? wb[(G + src) * H + o] : 0.0f;
          bias[(d * bg + g) * H + o] = w_part + r_part;
        }
    if (p.cell == Cell::kLstm && p.has[kP]) {
      // ONNX P is i, o, f; oneDNN's peephole weights are i, f, o.
      static const int64_t kPeep[3] = {0, 2, 1};
      const float* src = static_cast<const float*>(in[kP]);
      float* dst = static_cast<float*>(peep_.get_data_handle());
      for (int64_t d = 0; d < D; ++d)
        for (int64_t k = 0; k < 3; ++k) std::copy_n(src + (d * 3 + kPeep[k]) * H, H, dst + (d * 3 + k) * H);
    }
  }

  Plan p_;
  bool const_weights_ = false;
  dnnl::memory wl_plain_, wi_plain_, bias_, peep_, x_, y_user_;
  std::vector<dnnl::memory> init_users_, out_users_;  // bound to initial_h/_c, Y_h/Y_c per run
  std::vector<size_t> init_inputs_;
  std::vector<Step> pack_, pre_, main_, post_;
};

// Runs oneDNN where it can, the reference loop elsewhere.
class RnnKernel final : public Kernel {
 public:
  RnnKernel(const KernelSpec& spec, Plan p, std::unique_ptr<DnnlRnn> fast)
      : where_("node " + spec.name + " (" + spec.op + ")"), p_(std::move(p)), fast_(std::move(fast)) {
    lens_.reserve(static_cast<size_t>(p_.batch));
    scratch_.reserve(static_cast<size_t>((2 * p_.gates + 3) * p_.hidden));
  }

  Status Run(const void* const* in, void* const* out) override {
    if (fast_ && FullLengths(in)) return fast_->Run(in, out);
    Status s = RunReference(p_, in, out, scratch_);
    if (!s.ok()) s.Annotate(where_);
    return s;
  }

 private:
  bool FullLengths(const void* const* in) {
    if (!p_.has[kSeqLens]) return true;
    ReadLengths(p_, in[kSeqLens], lens_);
    return std::all_of(lens_.begin(), lens_.end(), [&](int64_t l) { return l == p_.seq; });
  }

  std::string where_;
  Plan p_;
  std::unique_ptr<DnnlRnn> fast_;
  std::vector<int64_t> lens_;
  std::vector<float> scratch_;
};

Status Supports(const KernelSpec& spec) { return MakePlan(spec).status(); }

Result<std::unique_ptr<Kernel>> Create(const KernelSpec& spec) {
  return Guard(spec, [&]() -> Result<std::unique_ptr<Kernel>> {
    GE_ASSIGN_OR_RETURN(Plan p, MakePlan(spec));
    std::unique_ptr<DnnlRnn> fast;
    if (DnnlExpressible(p)) {
      fast = std::make_unique<DnnlRnn>(spec);
      GE_RETURN_IF_ERROR(fast->Init(spec, p));
    }
    return std::unique_ptr<Kernel>(std::make_unique<RnnKernel>(spec, std::move(p), std::move(fast)));
  });
}

}  // namespace

void RegisterRnnKernels(KernelRegistry& r) {
  for (const char* op : {"LSTM", "GRU", "RNN"}) r.Register(op, Supports, Create);
}

}  // namespace ge::hal
