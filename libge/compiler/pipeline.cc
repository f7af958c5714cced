// The pass pipeline of Compile(), stage by stage (DESIGN.md "Compiler").
// Each stage's passes live in libge/compiler/passes/ (one file per pass).
#include "pass.h"
#include "passes/optimize_passes.h"
#include "passes/fusion_passes.h"
#include "passes/layout_passes.h"
#include "memory_conflict/memory_conflict_passes.h"

namespace ge {

PassManager BuildPipeline() {
  PassManager pm;
  // prepare. Unknown op types are listed (all of them) before inference
  // needs them; support is checked before the static-shape check so a model
  // with both problems reports every unsupported op first. AIPP and the
  // model IO casts go in before all of them, so they check those nodes too.
  pm.Add(InsertAippPass());
  pm.Add(InsertIoCastsPass());
  pm.Add(CheckKnownOpsPass());
  pm.Add(InSubgraphsToo(InferShapesPass()));
  pm.Add(CheckSupportPass());
  pm.Add(ShapeCheckPass());

  // Shape inference, the optimize passes and the fusions also run inside
  // control-flow subgraphs (InSubgraphsToo), innermost first.
  //
  // optimize. Shapes first so constant folding sees the shape chains as
  // constants; simplification after folding (folded shape operands make
  // no-op Reshapes visible); CSE on the simplified graph; DCE last removes
  // what the others orphaned.
  pm.Add(InSubgraphsToo(ShapeFoldingPass()));
  pm.Add(InSubgraphsToo(ConstantFoldingPass()));
  pm.Add(InSubgraphsToo(FoldConstantIfPass()));
  pm.Add(InSubgraphsToo(HoistLoopInvariantsPass()));  // after folding: what is left depends on captures  // after folding: conditions computed from constants are constants now
  pm.Add(InSubgraphsToo(AlgebraicSimplifyPass()));
  pm.Add(InSubgraphsToo(CsePass()));
  pm.Add(InSubgraphsToo(DeadCodeEliminationPass()));

  // fusion. The atrous rewrite first (it makes the Conv a BN follows), BN
  // folds next (they need the bare Conv/Gemm), the pattern fusions next,
  // post-ops last so they also see the Gemm/FusedMatMul and Gelu nodes the
  // earlier passes created.
  pm.Add(InSubgraphsToo(AtrousConvPass()));
  pm.Add(InSubgraphsToo(ConvBnFoldPass()));
  pm.Add(InSubgraphsToo(ConvMulAddFoldPass()));
  pm.Add(InSubgraphsToo(GemmBnFoldPass()));
  pm.Add(InSubgraphsToo(LayerNormFusionPass()));
  pm.Add(InSubgraphsToo(GeluFusionPass()));
  pm.Add(InSubgraphsToo(SiluFusionPass()));
  pm.Add(InSubgraphsToo(HardSwishFusionPass()));
  // After the BN folds: what is left has no conv to fold into.
  pm.Add(InSubgraphsToo(BnReluFusionPass()));
  pm.Add(InSubgraphsToo(ConcatBnFusionPass()));  // matches bn_relu_fusion's ChannelAffine
  // Before matmul_add_to_gemm, which would take a Q x K with a constant 2-D K
  // and a constant mask of [Sk] values as a MatMul + bias.
  pm.Add(InSubgraphsToo(AttentionFusionPass()));
  pm.Add(InSubgraphsToo(MatMulAddToGemmPass()));
  // After the BN folds (the convs' weights are constants, and a Conv -> BN
  // split in k would no longer fold) and right before conv_post_ops, which
  // fuses its Adds into the partial convs as sum post-ops.
  pm.Add(InSubgraphsToo(ConcatConvSplitPass()));
  pm.Add(InSubgraphsToo(ConvPostOpsPass()));
  pm.Add(InSubgraphsToo(GemmPostOpsPass()));
  // After matmul_add_to_gemm and gemm_post_ops: each part takes the bias and
  // the activation of the product it splits.
  pm.Add(InSubgraphsToo(MatMulSliceSplitPass()));
  // After conv_post_ops, which fuses only into Convs of at most 4 inputs:
  // the projection conv keeps its residual sum and takes the scale too.
  pm.Add(InSubgraphsToo(ConvInputScalePass()));

  // precision, then layout. After fusion, so the bf16 decisions and the
  // layouts see the final Conv nodes; precision first, so the layout stage
  // keeps bf16 tensors blocked too.
  pm.Add(MixedPrecisionPass());
  // After precision (only f32 convs qualify), before the layouts and the
  // weight packing, which then see the algorithm.
  pm.Add(ConvWinogradPass());
  // layout. After fusion, so the decisions see the final Conv nodes (their
  // fused residual inputs included).
  pm.Add(BlockedLayoutPass());

  // memory conflicts (docs/memory-conflicts.md). After the passes that
  // remove or merge nodes, so the copies it inserts are the final ones.
  pm.Add(HcclMemcpyPass());  // first: it marks what memory_rw_conflict skips
  pm.Add(AtomicAddrCleanPass());
  pm.Add(RwConflictPass());
  pm.Add(LayoutConflictPass());  // after the RW copies: it sees the symbols they leave
  // Last: the marks describe the final consumers (the copies above change them).
  pm.Add(InSubgraphsToo(InplaceSupportCheckPass()));
  // Last before partitioning: the kernels' final specs (layouts, bf16,
  // post-ops) decide how their weights are packed, and no pass may change a
  // constant after its consumers' packed copy was made.
  pm.Add(InSubgraphsToo(WeightPrepackPass()));

  // partition. Last: the clusters are the final nodes. A static graph is
  // left as it is.
  pm.Add(DynamicShapePartitionPass());

  return pm;
}

}  // namespace ge
