// libprotobuf writes its own lines to stderr (a string field with invalid
// UTF-8, a message over its size limit) before the tool's one error line.
// The parsers and the .om reader route them to spdlog at debug level first
// (--log debug shows them); ge_base stays free of protobuf.
#pragma once

namespace ge {

// Installs the handler once per process; later calls do nothing.
void RouteProtobufLogsToSpdlog();

}  // namespace ge
