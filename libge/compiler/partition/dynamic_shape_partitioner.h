// DynamicShapePartitioner (static-executor.txt §6.1): splits a graph with
// unknown shapes into clusters, and each known-shape cluster becomes one
// PartitionedCall node whose subgraph "f" is compiled like a static model.
//
//   mark      a node is UNKNOWN_SHAPE when an input or output shape has an
//             unknown dim or rank, or its op's shape is computed by its kernel;
//   init      one cluster per node: DATA, KNOWN_SHAPE, UNKNOWN_SHAPE, NETOUTPUT
//             (constants belong to no cluster: each subgraph gets a copy of
//             the ones it reads);
//   merge     1. an UNKNOWN cluster absorbs an UNKNOWN input cluster and every
//                cluster on a path between them (unknown is infectious);
//             2. a KNOWN cluster absorbs a KNOWN input cluster when the edge
//                between them is their only path (so no cycle is formed);
//             3. every DATA cluster becomes one;
//   prune     the distinct clusters that remain, in topological order.
#pragma once

#include <functional>
#include <vector>

#include "ge/ir/graph.h"

namespace ge::partition {

enum class ClusterType { kData, kKnownShape, kUnknownShape, kNetOutput };
const char* ClusterTypeName(ClusterType t);

struct Cluster {
  ClusterType type = ClusterType::kKnownShape;
  std::vector<Node*> nodes;  // topological order
};

// A node the v2 runtime must infer and size per call.
bool IsUnknownShapeNode(const Node& n);
// True when no node of `g` is unknown-shape: the model compiles as one
// static plan. With `static_control_flow`, the If / Loop nodes it accepts
// count as static (their subgraphs are planned and linked).
using NodeTest = std::function<bool(const Node&)>;
bool IsStaticGraph(const Graph& g, const NodeTest& static_control_flow = nullptr);

// The clusters of `g` after merging, in topological order.
Result<std::vector<Cluster>> ComputeClusters(const Graph& g);

// Rewrites `g`: every KNOWN_SHAPE cluster with a node that runs a kernel
// becomes a PartitionedCall node (subgraph "f": the cluster's nodes, a Data
// node per value it reads from outside, the constants it reads, a NetOutput
// of the values read outside). Returns the number of PartitionedCall nodes.
Result<int> PartitionDynamicShapes(Graph& g);

}  // namespace ge::partition
