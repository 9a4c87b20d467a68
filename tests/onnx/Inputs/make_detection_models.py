"""Writes ONNX models of the detection ops (RoiAlign, MaxRoiPool,
NonMaxSuppression) into DIR, each with NAME.inputs.npz and NAME.expected.npz:
the expected outputs are torchvision's (torchvision.ops.roi_align, roi_pool
and nms), not any compiler's. The sizes are a detector's second stage: 300
boxes, some reaching past the image, on a 2 x 64 x 25 x 38 feature map.

usage: make_detection_models.py DIR"""
import sys

import numpy as np
import torch
import torchvision
from onnx import TensorProto as T

from onnx_cases import graph, info, node, write_case, write_model

f32 = np.float32


def random_boxes(rng, count, width, height):
    """Boxes (x1, y1, x2, y2) of any size, some beyond the image."""
    x1 = rng.uniform(-10, width, count)
    y1 = rng.uniform(-10, height, count)
    return np.stack([x1, y1, x1 + rng.uniform(0, width / 2, count),
                     y1 + rng.uniform(0, height / 2, count)], 1).astype(f32)


def main(out):
    rng = np.random.default_rng(5)
    x = rng.standard_normal((2, 64, 25, 38)).astype(f32)
    # Boxes in the input image's pixels; the map is 1/16 of it.
    boxes = random_boxes(rng, 300, 38 * 16, 25 * 16)
    batch = rng.integers(0, 2, 300)
    torch_boxes = torch.from_numpy(
        np.concatenate([batch[:, None].astype(f32), boxes], 1))

    # RoiAlign with an adaptive grid (sampling_ratio 0) and with 2 x 2
    # samples, aligned (half_pixel) and not (output_half_pixel).
    for name, ratio, aligned in [("roi_align_adaptive", 0, True),
                                 ("roi_align_ratio2", 2, False)]:
        mode = "half_pixel" if aligned else "output_half_pixel"
        write_model(out, name, graph(
            name,
            [node("RoiAlign", ["x", "rois", "batch"], ["y"],
                  output_height=7, output_width=7, sampling_ratio=ratio,
                  spatial_scale=1 / 16, coordinate_transformation_mode=mode)],
            [info("x", T.FLOAT, [2, 64, 25, 38]),
             info("rois", T.FLOAT, ["r", 4]), info("batch", T.INT64, ["r"])],
            [info("y", T.FLOAT, ["r", 64, 7, 7])]))
        y = torchvision.ops.roi_align(torch.from_numpy(x), torch_boxes, (7, 7),
                                      spatial_scale=1 / 16,
                                      sampling_ratio=ratio, aligned=aligned)
        write_case(out, name, [x, boxes, batch.astype(np.int64)], [y.numpy()])

    # MaxRoiPool: boxes carry their batch index first.
    write_model(out, "max_roi_pool", graph(
        "max_roi_pool",
        [node("MaxRoiPool", ["x", "rois"], ["y"], pooled_shape=[6, 5],
              spatial_scale=1 / 16)],
        [info("x", T.FLOAT, [2, 64, 25, 38]), info("rois", T.FLOAT, [300, 5])],
        [info("y", T.FLOAT, [300, 64, 6, 5])]))
    y = torchvision.ops.roi_pool(torch.from_numpy(x), torch_boxes, (6, 5),
                                 spatial_scale=1 / 16)
    write_case(out, "max_roi_pool", [x, torch_boxes.numpy()], [y.numpy()])

    # NonMaxSuppression of 2 images x 3 classes x 200 boxes, with ties in
    # the scores, at most 20 a class.
    nboxes = np.stack([random_boxes(rng, 200, 300, 200) for _ in range(2)])
    scores = rng.uniform(0, 1, (2, 3, 200)).astype(f32)
    scores[:, :, 100:110] = 0.5
    iou, score_min, limit = 0.45, 0.2, 20
    write_model(out, "nms", graph(
        "nms",
        [node("NonMaxSuppression", ["boxes", "scores", "max", "iou", "min"],
              ["selected"])],
        [info("boxes", T.FLOAT, [2, 200, 4]),
         info("scores", T.FLOAT, [2, 3, 200])],
        [info("selected", T.INT64, ["n", 3])],
        {"max": np.array([limit], np.int64), "iou": np.array([iou], f32),
         "min": np.array([score_min], f32)}))
    rows = []
    for b in range(2):
        for c in range(3):
            keep = np.nonzero(scores[b, c] > score_min)[0]
            # ONNX's boxes are (y1, x1, y2, x2): the overlap is the same
            # with both axes swapped. Stable order: ties to the lower index.
            order = keep[np.argsort(-scores[b, c, keep], kind="stable")]
            kept = torchvision.ops.nms(
                torch.from_numpy(nboxes[b, order][:, [1, 0, 3, 2]]),
                torch.from_numpy(np.arange(len(order), 0, -1).astype(f32)),
                iou).numpy()
            rows += [[b, c, order[k]] for k in kept[:limit]]
    write_case(out, "nms", [nboxes, scores], [np.array(rows, np.int64)])


if __name__ == "__main__":
    main(sys.argv[1])
