#include "ge/tools/memory_svg.h"

#include <algorithm>
#include <cstdio>
#include <map>

namespace ge::tools {
namespace {

std::string Xml(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string Bytes(int64_t b) {
  char buf[64];
  if (b >= (1 << 20)) std::snprintf(buf, sizeof(buf), "%.2f MiB", b / 1048576.0);
  else if (b >= 1024) std::snprintf(buf, sizeof(buf), "%.1f KiB", b / 1024.0);
  else std::snprintf(buf, sizeof(buf), "%lld B", static_cast<long long>(b));
  return buf;
}

std::string Num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.1f", v);
  return buf;
}

// Colour per symbol: aliases (same symbol, same address) share a colour.
std::string Colour(int64_t symbol) {
  const unsigned h = static_cast<unsigned>(symbol * 2654435761u) % 360u;
  return "hsl(" + std::to_string(h) + ",60%,70%)";
}

}  // namespace

Result<std::string> PlanToSvg(const MemoryPlan& plan, const std::string& title) {
  if (plan.empty()) return InvalidArgument(title + ": the model has no memory plan (no buffers)");
  std::map<Segment, std::vector<const BufferPlan*>> by_segment;
  for (const BufferPlan& b : plan.buffers)
    if (b.segment != Segment::kWeights) by_segment[b.segment].push_back(&b);
  if (by_segment.empty()) return InvalidArgument(title + ": the memory plan holds weights only");

  const int steps = std::max<int>(1, static_cast<int>(plan.order.size()));
  const double left = 90, right = 20, top = 50, panel_h = 360, gap = 70, width = 1200;
  const double plot_w = width - left - right;
  const double step_w = plot_w / steps;
  const double height = top + by_segment.size() * (panel_h + gap) + 10;

  std::string s = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" +
                  Num(width) + "\" height=\"" + Num(height) + "\" viewBox=\"0 0 " + Num(width) + " " + Num(height) +
                  "\" font-family=\"Helvetica,Arial,sans-serif\" font-size=\"10\">\n";
  s += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  s += "<text x=\"" + Num(left) + "\" y=\"20\" font-size=\"14\">" + Xml(title) + ": feature-map peak " +
       Bytes(plan.feature_map_size) + ", lower bound " + Bytes(plan.lower_bound) + ", no reuse " +
       Bytes(plan.no_reuse_size) + "</text>\n";
  s += "<text x=\"" + Num(left) + "\" y=\"36\" fill=\"#555\">x: execution step (0.." + std::to_string(steps - 1) +
       "), y: offset in the segment; hover a buffer for its size and lifetime</text>\n";

  double y0 = top;
  for (const auto& [segment, buffers] : by_segment) {
    int64_t extent = 1;
    for (const BufferPlan* b : buffers) extent = std::max(extent, b->offset + b->size);
    if (segment == Segment::kFeatureMap) extent = std::max(extent, plan.feature_map_size);
    const double scale = panel_h / static_cast<double>(extent);
    s += "<g class=\"segment\" id=\"" + std::string(SegmentName(segment)) + "\">\n";
    s += "<text x=\"" + Num(left) + "\" y=\"" + Num(y0 + 12) + "\" font-size=\"12\">segment " +
         SegmentName(segment) + " (" + Bytes(extent) + ", " + std::to_string(buffers.size()) + " buffers)</text>\n";
    const double py = y0 + 20;
    s += "<rect x=\"" + Num(left) + "\" y=\"" + Num(py) + "\" width=\"" + Num(plot_w) + "\" height=\"" + Num(panel_h) +
         "\" fill=\"none\" stroke=\"#999\"/>\n";
    // Axis ticks: offsets at quarters, steps at about ten places.
    for (int q = 0; q <= 4; ++q) {
      const double y = py + panel_h * q / 4.0;
      s += "<text x=\"" + Num(left - 4) + "\" y=\"" + Num(y + 3) + "\" text-anchor=\"end\">" +
           Bytes(extent * q / 4) + "</text>\n";
    }
    const int tick = std::max(1, steps / 10);
    for (int t = 0; t < steps; t += tick)
      s += "<text x=\"" + Num(left + t * step_w) + "\" y=\"" + Num(py + panel_h + 12) + "\">" + std::to_string(t) +
           "</text>\n";
    for (const BufferPlan* b : buffers) {
      const int first = std::clamp(b->first_use, 0, steps - 1);
      const int last = std::clamp(std::max(b->last_use, b->first_use), 0, steps - 1);
      const double x = left + first * step_w, w = std::max(1.0, (last - first + 1) * step_w);
      const double y = py + b->offset * scale, h = std::max(1.0, b->size * scale);
      const std::string tip = b->node + ":" + std::to_string(b->output) + "\nsize " + Bytes(b->size) + " (" +
                              std::to_string(b->size) + " B), offset " + std::to_string(b->offset) + "\nsteps " +
                              std::to_string(b->first_use) + ".." + std::to_string(b->last_use) + ", symbol " +
                              std::to_string(b->symbol);
      s += "<g class=\"buffer\"><title>" + Xml(tip) + "</title><rect x=\"" + Num(x) + "\" y=\"" + Num(y) +
           "\" width=\"" + Num(w) + "\" height=\"" + Num(h) + "\" fill=\"" + Colour(b->symbol) +
           "\" fill-opacity=\"0.8\" stroke=\"#333\" stroke-width=\"0.5\"/>";
      // A label only where it fits; the tooltip always has it.
      if (h >= 10 && w >= 6.0 * std::min<size_t>(b->node.size(), 4))
        s += "<text x=\"" + Num(x + 2) + "\" y=\"" + Num(y + std::min(h, 20.0) / 2 + 3) + "\" font-size=\"" +
             (h >= 14 ? "10" : "8") + "\">" + Xml(b->node) + "</text>";
      s += "</g>\n";
    }
    s += "</g>\n";
    y0 += panel_h + gap;
  }
  return s + "</svg>\n";
}

std::string PlanSummary(const MemoryPlan& plan) {
  std::map<Segment, int> counts;
  for (const BufferPlan& b : plan.buffers) ++counts[b.segment];
  auto ratio = [](int64_t a, int64_t b) {
    if (b <= 0) return std::string("n/a");
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%.3fx", static_cast<double>(a) / static_cast<double>(b));
    return std::string(buf);
  };
  std::string s;
  s += "steps: " + std::to_string(plan.order.size()) + ", buffers: " + std::to_string(plan.buffers.size()) + " (";
  bool first = true;
  for (const auto& [seg, c] : counts) {
    s += std::string(first ? "" : ", ") + SegmentName(seg) + " " + std::to_string(c);
    first = false;
  }
  s += "), alignment " + std::to_string(plan.alignment) + ", reuse " + (plan.reuse ? "on" : "off") + "\n";
  s += "feature-map peak: " + std::to_string(plan.feature_map_size) + " B (" + Bytes(plan.feature_map_size) + ")\n";
  s += "lower bound:      " + std::to_string(plan.lower_bound) + " B (" + Bytes(plan.lower_bound) +
       "), peak/lower bound " + ratio(plan.feature_map_size, plan.lower_bound) + "\n";
  s += "no-reuse sum:     " + std::to_string(plan.no_reuse_size) + " B (" + Bytes(plan.no_reuse_size) +
       "), peak/no-reuse " + ratio(plan.feature_map_size, plan.no_reuse_size) + "\n";
  s += "weights: " + Bytes(plan.weights_size) + ", inputs: " + Bytes(plan.input_size) + ", outputs: " +
       Bytes(plan.output_size) + "\n";
  return s;
}

}  // namespace ge::tools
