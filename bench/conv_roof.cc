// ge-conv-roof: the achieved GFLOP/s of one large fp32 convolution in
// oneDNN on this machine, with the current thread count (OMP_NUM_THREADS):
// the roof a model's achieved GFLOP/s is compared against (DESIGN.md, "Where
// the speed comes from"; scripts/bench_vs_ort.sh). Source, weights and
// destination are created with format_tag::any, so oneDNN picks the layout
// and ISA it is fastest in, as ge's layout stage does; weights are reordered
// once, outside the timing. Best and median of --runs.
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <unordered_map>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <oneapi/dnnl/dnnl.hpp>

namespace {

struct Shape {
  int64_t n = 1, c = 256, h = 56, w = 56, k = 256, kernel = 3;
};

struct Result {
  double best_ms = 0, median_ms = 0;
  std::string impl;
};

// Times `runs` executions after `warmup` ones; inputs are zeros (the speed of
// a dense fp32 convolution does not depend on the values).
Result Measure(const Shape& s, int runs, int warmup) {
  using namespace dnnl;
  engine eng(engine::kind::cpu, 0);
  stream strm(eng);
  const int64_t pad = s.kernel / 2;
  const memory::dims src_dims = {s.n, s.c, s.h, s.w}, wei_dims = {s.k, s.c, s.kernel, s.kernel}, bias_dims = {s.k},
                     dst_dims = {s.n, s.k, s.h, s.w};
  auto any = [](const memory::dims& d) { return memory::desc(d, memory::data_type::f32, memory::format_tag::any); };
  convolution_forward::desc d(prop_kind::forward_inference, algorithm::convolution_direct, any(src_dims), any(wei_dims),
                              memory::desc(bias_dims, memory::data_type::f32, memory::format_tag::x), any(dst_dims),
                              {1, 1}, {pad, pad}, {pad, pad});
  convolution_forward::primitive_desc pd(d, eng);
  memory src(pd.src_desc(), eng), dst(pd.dst_desc(), eng), bias(pd.bias_desc(), eng);
  memory wei_plain({wei_dims, memory::data_type::f32, memory::format_tag::oihw}, eng), wei(pd.weights_desc(), eng);
  for (memory* m : {&src, &bias, &wei_plain})
    std::fill_n(static_cast<float*>(m->get_data_handle()), m->get_desc().get_size() / sizeof(float), 0.01f);
  reorder(wei_plain, wei).execute(strm, wei_plain, wei);
  convolution_forward conv(pd);
  const std::unordered_map<int, memory> args = {
      {DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, wei}, {DNNL_ARG_BIAS, bias}, {DNNL_ARG_DST, dst}};
  for (int i = 0; i < warmup; ++i) conv.execute(strm, args);
  strm.wait();
  std::vector<double> ms;
  for (int i = 0; i < runs; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    conv.execute(strm, args);
    strm.wait();
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(ms.begin(), ms.end());
  return {ms.front(), ms[ms.size() / 2], pd.impl_info_str()};
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "ge-conv-roof: the achieved GFLOP/s of one large fp32 oneDNN convolution on this machine (stride 1, 'same' "
      "padding, bias; layouts chosen by oneDNN), best and median of --runs, with OMP_NUM_THREADS threads. A "
      "multiply-add counts 2 FLOPs, as in ge-dump flops.",
      "ge-conv-roof"};
  Shape s;
  int runs = 20, warmup = 3;
  bool json = false;
  app.add_option("--n", s.n, "Batch (default 1)")->check(CLI::Range(1, 64));
  app.add_option("--c", s.c, "Input channels (default 256)")->check(CLI::Range(1, 4096));
  app.add_option("--hw", s.h, "Height and width (default 56)")->check(CLI::Range(1, 1024));
  app.add_option("--k", s.k, "Output channels (default 256)")->check(CLI::Range(1, 4096));
  app.add_option("--kernel", s.kernel, "Kernel size, odd (default 3)")->check(CLI::Range(1, 11));
  app.add_option("--runs", runs, "Timed runs (default 20)")->check(CLI::Range(1, 100000));
  app.add_option("--warmup", warmup, "Untimed runs first (default 3)")->check(CLI::Range(0, 100000));
  app.add_flag("--json", json, "Print one JSON object instead of text");
  CLI11_PARSE(app, argc, argv);
  s.w = s.h;
  if (s.kernel % 2 == 0) {
    std::fprintf(stderr, "ge-conv-roof: error: --kernel %lld: must be odd ('same' padding)\n", static_cast<long long>(s.kernel));
    return 2;
  }
  Result r;
  try {
    r = Measure(s, runs, warmup);
  } catch (const dnnl::error& e) {  // oneDNN reports by exception; it stops here, in this binary
    std::fprintf(stderr, "ge-conv-roof: error: oneDNN: %s (status %d)\n", e.what(), static_cast<int>(e.status));
    return 1;
  }
  const double flops = 2.0 * static_cast<double>(s.n * s.k * s.h * s.w) * static_cast<double>(s.c * s.kernel * s.kernel);
  const double best = flops / (r.best_ms * 1e6), median = flops / (r.median_ms * 1e6);
  const int threads = omp_get_max_threads();
  char shape[128];
  std::snprintf(shape, sizeof shape, "%lldx%lldx%lldx%lld %lldx%lld -> %lld", static_cast<long long>(s.n),
                static_cast<long long>(s.c), static_cast<long long>(s.h), static_cast<long long>(s.w),
                static_cast<long long>(s.kernel), static_cast<long long>(s.kernel), static_cast<long long>(s.k));
  if (json) {
    nlohmann::ordered_json j = {{"shape", shape},      {"flops", flops},         {"threads", threads},
                                {"runs", runs},        {"best_ms", r.best_ms},   {"median_ms", r.median_ms},
                                {"gflops_per_s", best}, {"median_gflops_per_s", median}, {"impl", r.impl}};
    std::printf("%s\n", j.dump().c_str());
  } else {
    std::printf("conv %s: %.3f GFLOP; best %.3f ms = %.1f GFLOP/s, median %.3f ms = %.1f GFLOP/s (%d runs, %d threads, %s)\n",
                shape, flops * 1e-9, r.best_ms, best, r.median_ms, median, runs, threads, r.impl.c_str());
  }
  return 0;
}
