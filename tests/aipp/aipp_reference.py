#!/usr/bin/python3
"""AIPP end to end against a numpy reference (docs/aipp.md).

For every input format and each switch, the script writes an ATC-style
aipp.cfg, converts tiny ONNX models with it the way Ascend's samples do
(ge-atc --soc_version Ascend310P3 --input_format NCHW --insert_op_conf
aipp.cfg), runs the raw uint8 image through ge-run in both modes and checks:
  * an Identity model: the Aipp output equals the numpy reference;
  * a Conv model: the output equals the same model converted without AIPP
    and run on the reference's float image.
The numpy reference is written from ATC's documentation, independently of
the kernel: swap, crop, CSC ((M (v - input_bias)) >> 8 + output_bias,
saturated to 0..255), normalisation ((v - mean - min) * var_reci), padding.

usage: aipp_reference.py BIN_DIR WORK_DIR     (exit 0: every case passed)
"""
import os
import shutil
import subprocess
import sys

try:
    import numpy as np
    import onnx
    from onnx import TensorProto, helper, numpy_helper
except ImportError as e:  # ctest's SKIP_RETURN_CODE
    print("SKIP: %s (install python3-numpy and python3-onnx)" % e)
    sys.exit(77)

JPEG_YUV2RGB = [256, 0, 359, 256, -88, -183, 256, 454, 0]
RGB2YUV_601 = [66, 129, 25, -38, -74, 112, 112, -94, -18]


def reference(raw, cfg, h, w):
    """The AIPP output [N, C, h, w] (float32) of raw uint8 data."""
    fmt = cfg["input_format"]
    n = raw.shape[0]
    if fmt == "YUV420SP_U8":
        sh, sw = raw.shape[1] * 2 // 3, raw.shape[2]
        y = raw[:, :sh, :, 0].astype(np.int64)
        uv = raw[:, sh:, :, 0].reshape(n, sh // 2, sw // 2, 2).astype(np.int64)
        uv = uv.repeat(2, axis=1).repeat(2, axis=2)
        img = np.stack([y, uv[..., 0], uv[..., 1]], axis=-1)  # [N, H, W, 3] YUV444
    elif fmt == "XRGB8888_U8":
        img = raw[..., 0:3] if cfg.get("ax_swap_switch") else raw[..., 1:4]
        img = img.astype(np.int64)
    else:
        img = raw.astype(np.int64)
    if cfg.get("rbuv_swap_switch") and fmt != "YUV400_U8":
        img = img[..., [0, 2, 1]] if fmt == "YUV420SP_U8" else img[..., [2, 1, 0]]
    pads = [cfg.get(k, 0) if cfg.get("padding") else 0
            for k in ("top_padding_size", "bottom_padding_size", "left_padding_size", "right_padding_size")]
    ch, cw = h - pads[0] - pads[1], w - pads[2] - pads[3]
    y0, x0 = 0, 0
    if cfg.get("crop"):
        y0, x0 = cfg.get("load_start_pos_h", 0), cfg.get("load_start_pos_w", 0)
        ch, cw = cfg.get("crop_size_h", ch), cfg.get("crop_size_w", cw)
    img = img[:, y0:y0 + ch, x0:x0 + cw, :]
    if cfg.get("csc_switch"):
        m = np.array(cfg["matrix"], dtype=np.int64).reshape(3, 3)
        ib = np.array(cfg.get("input_bias", [0, 0, 0]), dtype=np.int64)
        ob = np.array(cfg.get("output_bias", [0, 0, 0]), dtype=np.int64)
        acc = np.einsum("ij,nhwj->nhwi", m, img - ib)
        img = np.clip((acc >> 8) + ob, 0, 255)  # numpy's >> on int64 is a floor shift
    c = img.shape[-1]
    mean = np.array(cfg.get("mean", [0] * 4)[:c], dtype=np.float64)
    mn = np.array(cfg.get("min", [0.0] * 4)[:c], dtype=np.float64)
    var = np.array(cfg.get("var", [1.0] * 4)[:c], dtype=np.float64)
    norm = ((img - mean - mn) * var).astype(np.float32).transpose(0, 3, 1, 2)
    out = np.full((n, c, h, w), cfg.get("padding_value", 0.0), dtype=np.float32)
    out[:, :, pads[0]:pads[0] + ch, pads[2]:pads[2] + cw] = norm
    return out


def cfg_text(cfg):
    lines = ["aipp_op {", "  aipp_mode: static", "  related_input_rank: 0", "  input_format: " + cfg["input_format"]]
    for key in ("csc_switch", "rbuv_swap_switch", "ax_swap_switch", "crop", "padding"):
        if key in cfg:
            lines.append("  %s: %s" % (key, "true" if cfg[key] else "false"))
    for key in ("src_image_size_w", "src_image_size_h", "load_start_pos_w", "load_start_pos_h", "crop_size_w",
                "crop_size_h", "left_padding_size", "right_padding_size", "top_padding_size", "bottom_padding_size",
                "padding_value"):
        if key in cfg:
            lines.append("  %s: %s" % (key, cfg[key]))
    for i, v in enumerate(cfg.get("matrix", [])):
        lines.append("  matrix_r%dc%d: %d" % (i // 3, i % 3, v))
    for name in ("input_bias", "output_bias"):
        for i, v in enumerate(cfg.get(name, [])):
            lines.append("  %s_%d: %d" % (name, i, v))
    for name, field in (("mean", "mean_chn"), ("min", "min_chn"), ("var", "var_reci_chn")):
        for i, v in enumerate(cfg.get(name, [])):
            lines.append("  %s_%d: %s" % (field, i, v))
    return "\n".join(lines + ["}"]) + "\n"


def raw_shape(cfg, n, h, w):
    # Without src_image_size the image is what the padding leaves (docs/aipp.md).
    if cfg.get("padding"):
        h -= cfg.get("top_padding_size", 0) + cfg.get("bottom_padding_size", 0)
        w -= cfg.get("left_padding_size", 0) + cfg.get("right_padding_size", 0)
    sh, sw = cfg.get("src_image_size_h", h), cfg.get("src_image_size_w", w)
    return {"YUV420SP_U8": (n, sh * 3 // 2, sw, 1), "RGB888_U8": (n, sh, sw, 3), "XRGB8888_U8": (n, sh, sw, 4),
            "YUV400_U8": (n, sh, sw, 1)}[cfg["input_format"]]


def save_model(path, c, h, w, conv, rng):
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, c, h, w])
    if conv:
        wt = numpy_helper.from_array(rng.standard_normal((4, c, 3, 3)).astype(np.float32) * 0.1, "w")
        b = numpy_helper.from_array(rng.standard_normal(4).astype(np.float32), "b")
        node = helper.make_node("Conv", ["x", "w", "b"], ["y"], pads=[1, 1, 1, 1], name="conv0")
        y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4, h, w])
        graph = helper.make_graph([node], "aipp_conv", [x], [y], [wt, b])
    else:
        node = helper.make_node("Identity", ["x"], ["y"], name="id0")
        y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, c, h, w])
        graph = helper.make_graph([node], "aipp_id", [x], [y])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], producer_name="aipp_reference")
    onnx.save(model, path)


class Runner:
    def __init__(self, bin_dir, work):
        self.atc, self.run, self.work = os.path.join(bin_dir, "ge-atc"), os.path.join(bin_dir, "ge-run"), work

    def call(self, args):
        r = subprocess.run(args, capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError("%s failed (%d): %s" % (" ".join(args), r.returncode, r.stderr.strip()))
        return r

    def convert(self, onnx_path, out, aipp_cfg=None):
        args = [self.atc, "--model", onnx_path, "--framework", "5", "--output", out, "--soc_version", "Ascend310P3",
                "--input_format", "NCHW"]
        if aipp_cfg:
            args += ["--insert_op_conf", aipp_cfg]
        self.call(args)
        return out + ".om"

    def infer(self, om, input_path, mode):
        out_dir = os.path.join(self.work, "out")
        shutil.rmtree(out_dir, ignore_errors=True)
        self.call([self.run, "--model", om, "--input", input_path, "--output", out_dir, "--mode", mode])
        files = sorted(f for f in os.listdir(out_dir) if f.endswith(".npy"))
        if len(files) != 1:
            raise RuntimeError("expected one output .npy in %s, found %s" % (out_dir, files))
        return np.load(os.path.join(out_dir, files[0]))


CASES = [
    ("rgb888_plain", {"input_format": "RGB888_U8"}),
    ("rgb888_norm", {"input_format": "RGB888_U8", "mean": [104, 117, 123], "min": [0.5, 1.0, 1.5],
                     "var": [0.017, 0.0175, 0.0171]}),
    ("rgb888_rbuv_swap", {"input_format": "RGB888_U8", "rbuv_swap_switch": True, "mean": [1, 2, 3]}),
    ("rgb888_crop", {"input_format": "RGB888_U8", "src_image_size_w": 21, "src_image_size_h": 19, "crop": True,
                     "load_start_pos_w": 5, "load_start_pos_h": 3, "crop_size_w": 16, "crop_size_h": 12}),
    ("rgb888_crop_padding", {"input_format": "RGB888_U8", "src_image_size_w": 20, "src_image_size_h": 20,
                             "crop": True, "load_start_pos_w": 2, "load_start_pos_h": 1, "crop_size_w": 13,
                             "crop_size_h": 9, "padding": True, "left_padding_size": 1, "right_padding_size": 2,
                             "top_padding_size": 2, "bottom_padding_size": 1, "padding_value": -1.5,
                             "mean": [100, 100, 100], "var": [0.01, 0.02, 0.03]}),
    ("rgb888_csc_to_yuv", {"input_format": "RGB888_U8", "csc_switch": True, "matrix": RGB2YUV_601,
                           "output_bias": [16, 128, 128]}),
    ("xrgb8888_plain", {"input_format": "XRGB8888_U8", "mean": [10, 20, 30]}),
    ("xrgb8888_ax_swap", {"input_format": "XRGB8888_U8", "ax_swap_switch": True}),
    ("xrgb8888_rbuv_swap_csc", {"input_format": "XRGB8888_U8", "rbuv_swap_switch": True, "csc_switch": True,
                                "matrix": RGB2YUV_601, "output_bias": [16, 128, 128], "var": [0.5, 0.25, 2.0]}),
    ("yuv420sp_to_yuv444", {"input_format": "YUV420SP_U8"}),
    ("yuv420sp_csc_jpeg", {"input_format": "YUV420SP_U8", "csc_switch": True, "matrix": JPEG_YUV2RGB,
                           "input_bias": [0, 128, 128], "mean": [104, 117, 123], "var": [0.017, 0.017, 0.017]}),
    ("yuv420sp_nv21_csc_crop", {"input_format": "YUV420SP_U8", "rbuv_swap_switch": True, "csc_switch": True,
                                "matrix": [298, 0, 409, 298, -100, -208, 298, 516, 0], "input_bias": [16, 128, 128],
                                "src_image_size_w": 24, "src_image_size_h": 20, "crop": True, "load_start_pos_w": 4,
                                "load_start_pos_h": 2, "crop_size_w": 16, "crop_size_h": 12}),
    ("yuv420sp_padding", {"input_format": "YUV420SP_U8", "csc_switch": True, "matrix": JPEG_YUV2RGB,
                          "input_bias": [0, 128, 128], "padding": True, "left_padding_size": 2,
                          "right_padding_size": 2, "top_padding_size": 1, "bottom_padding_size": 1,
                          "padding_value": 0.25}),
    ("yuv400_norm", {"input_format": "YUV400_U8", "mean": [128], "var": [0.0078125]}),
    ("yuv400_crop_padding", {"input_format": "YUV400_U8", "src_image_size_w": 18, "src_image_size_h": 15,
                             "crop": True, "load_start_pos_w": 1, "load_start_pos_h": 2, "crop_size_w": 14,
                             "crop_size_h": 10, "padding": True, "left_padding_size": 1, "right_padding_size": 1,
                             "top_padding_size": 1, "bottom_padding_size": 1, "padding_value": 3.0}),
]
H, W = 12, 16


def main():
    bin_dir, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    r = Runner(bin_dir, work)
    rng = np.random.default_rng(7)
    failed = []
    for name, cfg in CASES:
        c = 1 if cfg["input_format"] == "YUV400_U8" else 3
        base = os.path.join(work, name)
        try:
            with open(base + ".cfg", "w") as f:
                f.write(cfg_text(cfg))
            raw = rng.integers(0, 256, size=raw_shape(cfg, 1, H, W), dtype=np.uint8)
            raw.tofile(base + ".bin")
            ref = reference(raw, cfg, H, W)
            np.save(base + "_ref.npy", ref)
            for conv in (False, True):
                onnx_path = base + ("_conv" if conv else "_id") + ".onnx"
                save_model(onnx_path, c, H, W, conv, rng)
                om = r.convert(onnx_path, base + ("_conv" if conv else "_id") + "_aipp", base + ".cfg")
                want = r.infer(r.convert(onnx_path, base + "_plain"), base + "_ref.npy", "v2") if conv else ref
                for mode in ("v2", "sink"):
                    got = r.infer(om, base + ".bin", mode)
                    if got.shape != want.shape:
                        raise RuntimeError("%s %s: shape %s, want %s" % ("conv" if conv else "identity", mode,
                                                                        got.shape, want.shape))
                    err = np.abs(got.astype(np.float64) - want).max()
                    tol = 1e-4 * max(1.0, np.abs(want).max())
                    if not err <= tol:
                        raise RuntimeError("%s %s: max abs error %.3g > %.3g" % ("conv" if conv else "identity",
                                                                                 mode, err, tol))
            print("PASS %s" % name)
        except Exception as e:  # one line per failing case, then go on
            failed.append(name)
            print("FAIL %s: %s" % (name, e))
    print("%d passed, %d failed" % (len(CASES) - len(failed), len(failed)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
