// The onnx library writes some warnings straight to std::cerr ("Checker
// does not support models with experimental ops: ..."), which would put a
// second line before a tool's one error line. While a capture is alive,
// std::cerr goes to a buffer; at its end each line is logged at info level
// (--log info shows them). Parsing runs on one thread; the swap is not for
// concurrent use of std::cerr.
#pragma once

#include <iostream>
#include <sstream>
#include <string>

#include <spdlog/spdlog.h>

namespace ge::onnx_parser {

class CerrCapture {
 public:
  CerrCapture() : old_(std::cerr.rdbuf(buffer_.rdbuf())) {}
  ~CerrCapture() {
    std::cerr.rdbuf(old_);
    std::string line;
    while (std::getline(buffer_, line))
      if (!line.empty()) spdlog::info("onnx: {}", line);
  }
  CerrCapture(const CerrCapture&) = delete;
  CerrCapture& operator=(const CerrCapture&) = delete;

 private:
  std::stringstream buffer_;
  std::streambuf* old_;
};

}  // namespace ge::onnx_parser
