"""Networks from PyTorch, through ONNX, compiled and checked against PyTorch.

usage: zoo.py AOT_COMPILE MODEL [MODEL...]
       zoo.py --write-ops [FILE]

Each model is built with seeded random weights (nothing is downloaded),
exported with torch.onnx.export (opset 17, gradients enabled: the fused
attention path torch takes under no_grad has no export), compiled by
aot-compile at -O0 and -O3 on one thread and on two, loaded with mlir_aot
and called on seeded inputs, including a second batch size where the
model's batch dim is dynamic. Every result must match PyTorch's within the
model's tolerance. Each model's export must also compile for cuda:sm_90,
to its kernels' PTX (the models of zoo_gpu.py are compiled whole, through
ptxas and the host code, and run on a GPU by their generated tests). Exit 0
when all match; 1 naming each model, option set and the worst difference
otherwise; 77 (skipped) when torch or onnx is missing, saying which.

Each check also compares the op types of the exported graph with the
model's entry in zoo-ops.json, the inventory docs/supported-ops.md is made
from; --write-ops exports every model and writes that file anew (with the
list of ONNX's default-domain ops at opset 17).
"""
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

try:
    import onnx  # noqa: F401  (torch.onnx.export needs it)
    import torch
    import torchvision
except ImportError as e:
    print("skipped: %s (Debian: python3-torch, python3-torchvision, "
          "python3-onnx; scripts/setup.sh installs them)" % e)
    sys.exit(77)

import mlir_aot


def reinit(module, scale=1.0):
    """Weights and batch-norm statistics far from their defaults, so that
    every layer changes the result (fresh batch norms are identities)."""
    g = torch.Generator().manual_seed(1)
    with torch.no_grad():
        for m in module.modules():
            if isinstance(m, (torch.nn.BatchNorm1d, torch.nn.BatchNorm2d,
                              torch.nn.BatchNorm3d)):
                m.running_mean.uniform_(-0.5, 0.5, generator=g)
                m.running_var.uniform_(0.5, 1.5, generator=g)
                m.weight.uniform_(0.5, 1.5, generator=g)
                m.bias.uniform_(-0.2, 0.2, generator=g)
            elif isinstance(m, (torch.nn.Conv1d, torch.nn.Conv2d,
                                torch.nn.Conv3d, torch.nn.Linear)):
                fan_in = m.weight[0].numel()
                m.weight.normal_(0, scale / fan_in ** 0.5, generator=g)
                if m.bias is not None:
                    m.bias.uniform_(-0.1, 0.1, generator=g)
    return module


class SmallCnn(torch.nn.Module):
    """Conv (padded, strided, grouped), batch norm, ReLU, max and average
    pooling, flatten, linear: a CNN's ops at a small size."""

    def __init__(self):
        super().__init__()
        self.c1 = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.b1 = torch.nn.BatchNorm2d(8)
        self.c2 = torch.nn.Conv2d(8, 16, 3, stride=2, padding=1, groups=2)
        self.c3 = torch.nn.Conv2d(16, 16, 3, padding=1, groups=16)
        self.fc = torch.nn.Linear(16 * 2 * 2, 10)

    def forward(self, x):
        x = torch.relu(self.b1(self.c1(x)))
        x = torch.nn.functional.max_pool2d(x, 2)
        x = torch.nn.functional.hardswish(self.c3(self.c2(x)))
        x = torch.nn.functional.avg_pool2d(x, 2)
        return self.fc(torch.flatten(x, 1))


class Mlp(torch.nn.Module):
    """Linear, layer norm, GELU (erf), softmax."""

    def __init__(self):
        super().__init__()
        self.l1 = torch.nn.Linear(32, 64)
        self.norm = torch.nn.LayerNorm(64)
        self.l2 = torch.nn.Linear(64, 16)

    def forward(self, x):
        h = torch.nn.functional.gelu(self.norm(self.l1(x)))
        return torch.softmax(self.l2(h), dim=-1)


class Gpt(torch.nn.Module):
    """A GPT-2-style decoder: token and position embeddings (Gather), pre-norm
    blocks of causal self-attention (a mask buffer sliced to the sequence
    length, masked_fill with -inf) and a tanh-GELU MLP, a final layer norm
    and a tied-size head."""

    def __init__(self, vocab=256, dim=64, heads=4, blocks=2, context=64):
        super().__init__()
        self.heads = heads
        self.wte = torch.nn.Embedding(vocab, dim)
        self.wpe = torch.nn.Embedding(context, dim)
        self.blocks = torch.nn.ModuleList(torch.nn.ModuleDict(dict(
            ln1=torch.nn.LayerNorm(dim), qkv=torch.nn.Linear(dim, 3 * dim),
            proj=torch.nn.Linear(dim, dim), ln2=torch.nn.LayerNorm(dim),
            fc=torch.nn.Linear(dim, 4 * dim), out=torch.nn.Linear(4 * dim, dim)))
            for _ in range(blocks))
        self.ln = torch.nn.LayerNorm(dim)
        self.head = torch.nn.Linear(dim, vocab, bias=False)
        self.register_buffer("mask", torch.tril(
            torch.ones(context, context)).view(1, 1, context, context))

    def forward(self, idx):
        b, t = idx.shape
        x = self.wte(idx) + self.wpe(torch.arange(t).unsqueeze(0))
        d = x.shape[-1]
        hd = d // self.heads
        for blk in self.blocks:
            q, k, v = blk["qkv"](blk["ln1"](x)).split(d, dim=2)
            q, k, v = (z.view(b, t, self.heads, hd).transpose(1, 2)
                       for z in (q, k, v))
            att = (q @ k.transpose(-2, -1)) * (1.0 / hd ** 0.5)
            att = att.masked_fill(self.mask[:, :, :t, :t] == 0, float("-inf"))
            y = (torch.softmax(att, -1) @ v).transpose(1, 2).reshape(b, t, d)
            x = x + blk["proj"](y)
            h = torch.nn.functional.gelu(blk["fc"](blk["ln2"](x)),
                                         approximate="tanh")
            x = x + blk["out"](h)
        return self.head(self.ln(x))


class Recurrent(torch.nn.Module):
    """A two-layer LSTM or GRU over a sequence, one way or both, the last
    step to a linear head."""

    def __init__(self, cell, bidirectional=False):
        super().__init__()
        self.rnn = cell(16, 32, num_layers=2, batch_first=True,
                        bidirectional=bidirectional)
        self.fc = torch.nn.Linear(64 if bidirectional else 32, 4)

    def forward(self, x):
        y, _ = self.rnn(x)
        return self.fc(y[:, -1])


class RnnStack(torch.nn.Module):
    """Plain RNNs: a bidirectional tanh layer, then a relu one, the last
    step to a linear head."""

    def __init__(self):
        super().__init__()
        self.first = torch.nn.RNN(16, 32, batch_first=True,
                                  bidirectional=True)
        self.second = torch.nn.RNN(64, 32, nonlinearity="relu",
                                   batch_first=True)
        self.fc = torch.nn.Linear(32, 4)

    def forward(self, x):
        y, _ = self.first(x)
        y, _ = self.second(y)
        return self.fc(y[:, -1])


class ControlFlow(torch.nn.Module):
    """TorchScript control flow: an `if` on the batch size (an ONNX If
    whose condition is computed at run time), each branch its own ops, then
    a `for` loop of as many residual steps as the batch has rows (an ONNX
    Loop of a count known at run time)."""

    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(8, 8)
        self.step = torch.nn.Linear(8, 8)

    def forward(self, x):
        y = self.fc(x)
        if x.shape[0] > 2:
            y = torch.relu(y) * 2.0
        else:
            y = torch.sigmoid(y) - 1.0
        for _ in range(x.shape[0]):
            y = torch.tanh(self.step(y)) + y
        return y


class Decoder(torch.nn.Module):
    """torch.nn.TransformerDecoderLayer: self-attention, cross-attention on
    a memory, feed-forward."""

    def __init__(self):
        super().__init__()
        self.layer = torch.nn.TransformerDecoderLayer(64, 4, 128,
                                                      batch_first=True)

    def forward(self, tgt, memory):
        return self.layer(tgt, memory)


class Upsample(torch.nn.Module):
    """A decoder's ops: ConvTranspose (strided and padded, with
    output_padding; depthwise), InstanceNormalization, Resize (bilinear
    with and without align_corners, nearest, to a scale and to a size)."""

    def __init__(self):
        super().__init__()
        self.up1 = torch.nn.ConvTranspose2d(4, 6, 3, stride=2, padding=1,
                                            output_padding=1)
        self.norm = torch.nn.InstanceNorm2d(6, affine=True)
        self.up2 = torch.nn.ConvTranspose2d(6, 6, 4, stride=2, padding=1,
                                            groups=6, bias=False)
        self.up3 = torch.nn.ConvTranspose2d(6, 3, 2, dilation=2)
        with torch.no_grad():
            self.norm.weight.uniform_(0.5, 1.5)
            self.norm.bias.uniform_(-0.5, 0.5)

    def forward(self, x):
        interpolate = torch.nn.functional.interpolate
        y = self.norm(self.up1(x))                      # 10 x 10
        y = torch.relu(self.up2(y))                     # 20 x 20
        a = interpolate(y, scale_factor=0.5, mode="bilinear")
        b = interpolate(a, size=(13, 7), mode="bilinear", align_corners=True)
        c = interpolate(a, scale_factor=2, mode="nearest")
        d = self.up3(a)
        return torch.cat([t.flatten(1) for t in (a, b, c, d)], 1)


class AudioEncoder(torch.nn.Module):
    """Whisper's encoder in small: two 1-D convolutions over a log-mel
    spectrogram (80 bins; the second halves the frames), GELU, learned
    positions, pre-norm transformer layers, a final LayerNorm."""

    def __init__(self, frames=200, width=64):
        super().__init__()
        self.conv1 = torch.nn.Conv1d(80, width, 3, padding=1)
        self.conv2 = torch.nn.Conv1d(width, width, 3, stride=2, padding=1)
        self.positions = torch.nn.Parameter(
            torch.randn(frames // 2, width) * 0.1)
        layer = torch.nn.TransformerEncoderLayer(
            width, 4, 2 * width, activation="gelu", batch_first=True,
            norm_first=True)
        self.layers = torch.nn.TransformerEncoder(layer, num_layers=2)
        self.norm = torch.nn.LayerNorm(width)

    def forward(self, mel):
        gelu = torch.nn.functional.gelu
        x = gelu(self.conv2(gelu(self.conv1(mel)))).permute(0, 2, 1)
        return self.norm(self.layers(x + self.positions))


class WaveUnet(torch.nn.Module):
    """A waveform encoder-decoder's 1-D ops: strided, grouped and dilated
    Conv1d, BatchNorm1d, MaxPool1d, AvgPool1d, ConvTranspose1d (strided,
    with output_padding), a skip connection and AdaptiveAvgPool1d."""

    def __init__(self):
        super().__init__()
        self.down1 = torch.nn.Conv1d(1, 16, 9, stride=2, padding=4)
        self.norm1 = torch.nn.BatchNorm1d(16)
        self.down2 = torch.nn.Conv1d(16, 32, 5, padding=4, dilation=2,
                                     groups=4)
        self.up = torch.nn.ConvTranspose1d(32, 16, 4, stride=2, padding=1)
        self.out = torch.nn.Conv1d(32, 1, 1)

    def forward(self, wave):
        a = torch.relu(self.norm1(self.down1(wave)))        # 16 x 128
        b = torch.relu(self.down2(
            torch.nn.functional.max_pool1d(a, 2)))          # 32 x 64
        b = torch.nn.functional.avg_pool1d(b, 3, stride=1, padding=1)
        u = self.up(b)                                      # 16 x 128
        y = self.out(torch.cat([u, a], 1))                  # 1 x 128
        return y + torch.nn.functional.adaptive_avg_pool1d(u, 1).mean(1,
                                                                      True)


class VideoCnn(torch.nn.Module):
    """A video classifier's 3-D ops, as torchvision's R(2+1)D and MC3 use
    them: a strided spatial stem, BatchNorm3d, (2+1)D factored convolutions
    (1 x 3 x 3 then 3 x 1 x 1), a depthwise 3-D convolution, MaxPool3d,
    AvgPool3d, adaptive pooling and a classifier."""

    def __init__(self):
        super().__init__()
        conv = torch.nn.Conv3d
        self.stem = conv(3, 16, (3, 7, 7), stride=(1, 2, 2),
                         padding=(1, 3, 3), bias=False)
        self.norm = torch.nn.BatchNorm3d(16)
        self.spatial = conv(16, 24, (1, 3, 3), padding=(0, 1, 1))
        self.temporal = conv(24, 24, (3, 1, 1), padding=(1, 0, 0))
        self.depthwise = conv(24, 24, 3, padding=1, groups=24)
        self.head = torch.nn.Linear(24, 10)

    def forward(self, clip):
        x = torch.relu(self.norm(self.stem(clip)))            # 16 x 8 x 16 x 16
        x = torch.nn.functional.max_pool3d(x, (1, 3, 3), (1, 2, 2), (0, 1, 1))
        x = torch.relu(self.temporal(torch.relu(self.spatial(x))))
        x = torch.nn.functional.avg_pool3d(self.depthwise(x), (2, 2, 2))
        return self.head(torch.nn.functional.adaptive_avg_pool3d(x, 1)
                         .flatten(1))


class Indexing(torch.nn.Module):
    """Einsum (a matmul, attention scores, an ellipsis), Trilu, CumSum,
    Tile, Sign, Mod, ArgMax, ArgMin, GatherElements, ScatterND, a reversed
    slice, a gather feeding a batched matmul (dynamic batch): what attention
    masks, positions, windows and decoding compute."""

    def __init__(self):
        super().__init__()
        self.w = torch.nn.Parameter(torch.randn(8, 8))

    def forward(self, x):                               # b x 6 x 8
        s = torch.einsum("bij,jk->bik", x, self.w)
        a = torch.einsum("bid,bjd->bij", s, x)
        e = torch.einsum("...ij->...ji", a)
        a = torch.triu(a, diagonal=1) + 0.5 * torch.tril(e, -1)
        c = torch.cumsum(a, dim=2)
        t = x.repeat(1, 2, 1)
        sign = torch.sign(torch.round(x))
        m = torch.fmod(x * 3, 1.7)
        i = torch.argmax(s, dim=2, keepdim=True)
        j = torch.argmin(s, dim=1)
        g = torch.gather(x, 2, i.expand(-1, -1, 3))
        u = x.clone()
        u[:, 1] = s[:, 2]
        r = torch.flip(x, [1])
        # A gather read inside a contraction whose sum is split in chunks.
        y = x.repeat(1, 1, 4)
        z = torch.stack([y, 2 * y])[1].matmul(y.transpose(1, 2))
        return torch.cat([v.flatten(1).float() for v in
                          (s, a, c, t, sign, m, i, j, g, u, r, z)], 1)


class Segmenter(torch.nn.Module):
    """A fully convolutional segmenter over images of any size (batch,
    height and width dynamic): plain, strided, dilated and depthwise
    convolutions, batch norm, max and average pooling, a global-context
    branch (adaptive average pooling to 1 x 1, added back), and skip
    connections joined after interpolating to the skip's own size
    (bilinear and nearest; the sizes are read from the shape at run
    time), and a downscale by a constant factor."""

    def __init__(self):
        super().__init__()
        nn = torch.nn

        def block(cin, cout, **kw):
            return nn.Sequential(nn.Conv2d(cin, cout, 3, **kw),
                                 nn.BatchNorm2d(cout), nn.ReLU())
        self.stem = block(3, 16, padding=1)
        self.down1 = block(16, 32, stride=2, padding=1)
        self.pool = nn.MaxPool2d(2)
        self.down2 = nn.Sequential(block(32, 32, padding=2, dilation=2),
                                   block(32, 32, padding=1, groups=32))
        self.context = nn.Conv2d(32, 32, 1)
        self.fuse1 = nn.Conv2d(64, 32, 3, padding=1, groups=2)
        self.fuse2 = nn.Conv2d(48, 16, 3, padding=1)
        self.head = nn.Conv2d(16, 5, 1)

    def forward(self, x):
        interpolate = torch.nn.functional.interpolate
        s = self.stem(x)
        a = self.down1(s)                               # ceil(h / 2)
        b = self.down2(self.pool(a))                    # floor of that / 2
        b = b + self.context(torch.nn.functional.adaptive_avg_pool2d(b, 1))
        u = interpolate(b, size=a.shape[-2:], mode="bilinear")
        a = self.fuse1(torch.cat([a, u], 1))
        u = interpolate(a, size=s.shape[-2:], mode="nearest")
        y = self.fuse2(torch.cat([s, u], 1))
        y = torch.nn.functional.avg_pool2d(y, 3, stride=1, padding=1)
        # Half size both ways (floor), by a scale and by a pool.
        h = interpolate(s, scale_factor=0.5, mode="bilinear") + self.pool(s)
        return self.head(y + torch.nn.functional.adaptive_avg_pool2d(h, 1))


def images(shape):
    return lambda batch: [torch.randn(batch, *shape)]


def tokens(length, vocab=256):
    return lambda batch: [torch.randint(0, vocab, (batch, length))]


class Model:
    """make() builds the module; inputs(batch) its seeded inputs; dynamic:
    the batch dim (dim 0 of every input and output) is exported dynamic,
    and with it the dims `spatial` names (their name by dim), which
    other(batch) changes;
    rtol/atol: the tolerance against PyTorch (float32 everywhere; the
    looser ones for deep networks, where summation order differs). Every
    model's export also compiles for cuda:sm_90 (the check compiles it;
    zoo_gpu.py runs them on a GPU)."""

    def __init__(self, make, inputs, dynamic=True, rtol=1e-4, atol=1e-5,
                 batch=1, spatial=None, other=None):
        self.make, self.inputs, self.dynamic = make, inputs, dynamic
        self.rtol, self.atol, self.batch = rtol, atol, batch
        self.spatial, self.other = spatial or {}, other or inputs


def vision(name, size=64, **kw):
    make = getattr(torchvision.models, name)
    return Model(lambda: reinit(make()), images((3, size, size)),
                 rtol=1e-3, atol=1e-4, **kw)


def models():
    tv = torchvision.models
    return {
        "small_cnn": Model(lambda: reinit(SmallCnn()), images((3, 16, 16)),
                           batch=2),
        "mlp": Model(lambda: reinit(Mlp()), lambda b: [torch.randn(b, 32)],
                     rtol=1e-4, atol=1e-6, batch=4),
        "resnet18": vision("resnet18"),
        "resnet50": vision("resnet50", size=224),
        "mobilenet_v2": vision("mobilenet_v2"),
        "mobilenet_v3_small": vision("mobilenet_v3_small"),
        "efficientnet_b0": vision("efficientnet_b0"),
        "squeezenet1_0": vision("squeezenet1_0"),
        "shufflenet_v2_x0_5": vision("shufflenet_v2_x0_5"),
        "densenet121": vision("densenet121"),
        "regnet_y_400mf": vision("regnet_y_400mf"),
        "convnext_tiny": vision("convnext_tiny"),
        "vit": Model(lambda: reinit(tv.VisionTransformer(
            image_size=32, patch_size=8, num_layers=2, num_heads=4,
            hidden_dim=64, mlp_dim=128, num_classes=10)), images((3, 32, 32)),
            rtol=1e-3, atol=1e-4),
        "transformer_encoder": Model(lambda: torch.nn.TransformerEncoder(
            torch.nn.TransformerEncoderLayer(64, 4, 128, batch_first=True),
            num_layers=2), lambda b: [torch.randn(b, 16, 64)], batch=2),
        "transformer_decoder": Model(Decoder, lambda b: [
            torch.randn(b, 8, 64), torch.randn(b, 10, 64)], batch=2),
        "gpt": Model(Gpt, tokens(16), batch=2, rtol=1e-3, atol=1e-4),
        "upsample": Model(Upsample, images((4, 5, 5)), batch=2),
        # Height and width dynamic too: checked at 40 x 48 and at 27 x 33.
        "segmenter": Model(lambda: reinit(Segmenter()), images((3, 40, 48)),
                           spatial={2: "height", 3: "width"},
                           other=images((3, 27, 33)), rtol=1e-4, atol=1e-5),
        "indexing": Model(Indexing, lambda b: [torch.randn(b, 6, 8)],
                          batch=2),
        "audio_encoder": Model(lambda: reinit(AudioEncoder()),
                               lambda b: [torch.randn(b, 80, 200)], batch=2,
                               rtol=1e-3, atol=1e-4),
        "wave_unet": Model(lambda: reinit(WaveUnet()),
                           lambda b: [torch.randn(b, 1, 256)], batch=2),
        "video_cnn": Model(lambda: reinit(VideoCnn()),
                           lambda b: [torch.randn(b, 3, 8, 32, 32)], batch=2,
                           rtol=1e-3, atol=1e-4),
        "swin_t": vision("swin_t"),
        "vgg11": vision("vgg11", size=224),
        "lstm": Model(lambda: Recurrent(torch.nn.LSTM),
                      lambda b: [torch.randn(b, 10, 16)], batch=2),
        "gru": Model(lambda: Recurrent(torch.nn.GRU, bidirectional=True),
                     lambda b: [torch.randn(b, 10, 16)], batch=2),
        "rnn": Model(RnnStack, lambda b: [torch.randn(b, 10, 16)], batch=2),
        # Batch 2 takes the else branch, the other size checked (4) the
        # then branch.
        "control_flow": Model(lambda: torch.jit.script(reinit(ControlFlow())),
                              lambda b: [torch.randn(b, 8)], batch=2),
    }


OPS_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                        "zoo-ops.json")


def export(name, workdir):
    """The model's module, its inputs and the path of its ONNX export (the
    batch dim dynamic where the model's spec says)."""
    spec = models()[name]
    torch.manual_seed(0)
    module = spec.make().eval()
    inputs = spec.inputs(spec.batch)
    names = ["x%d" % i for i in range(len(inputs))]
    path = os.path.join(workdir, name + ".onnx")
    axes = None
    if spec.dynamic:
        axes = {n: {0: "batch", **spec.spatial} for n in names + ["y"]}
    torch.onnx.export(module, tuple(inputs), path, opset_version=17,
                      input_names=names, output_names=["y"],
                      dynamic_axes=axes)
    return module, inputs, path


def graph_ops(path):
    return sorted({n.op_type for n in onnx.load(path).graph.node})


def write_ops(path):
    import onnx.defs
    opset17 = sorted({s.name for s in onnx.defs.get_all_schemas_with_history()
                      if s.domain == "" and s.since_version <= 17
                      and not s.deprecated})
    found = {}
    with tempfile.TemporaryDirectory(prefix="aot-onnx-zoo-") as workdir:
        for name in sorted(models()):
            found[name] = graph_ops(export(name, workdir)[2])
    with open(path, "w", encoding="utf-8") as f:
        json.dump({"opset17": opset17, "models": found}, f, indent=1,
                  sort_keys=True)
        f.write("\n")
    return 0


OPTION_SETS = [["-O0", "--threads=1"], ["-O3", "--threads=2"]]


def check(compiler, name, workdir):
    spec = models()[name]
    module, inputs, path = export(name, workdir)
    failures = []
    with open(OPS_FILE, encoding="utf-8") as f:
        listed = json.load(f)["models"].get(name)
    if listed != graph_ops(path):
        failures.append("%s: its ops %s are not those tests/onnx/zoo-ops.json "
                        "lists (%s); run zoo.py --write-ops and "
                        "scripts/supported-ops.py" % (name, graph_ops(path),
                                                      listed))
    cases = [inputs]
    if spec.dynamic:
        cases.append(spec.other(spec.batch + 2))
    with torch.no_grad():
        expected = [module(*c).numpy() for c in cases]
    for options in OPTION_SETS:
        library = os.path.join(workdir, "%s%s.so" % (name, "".join(options)))
        run = subprocess.run([compiler, path, "-o", library] + options,
                             capture_output=True, text=True)
        if run.returncode != 0:
            failures.append("%s %s: aot-compile failed:\n%s"
                            % (name, " ".join(options), run.stderr))
            continue
        m = mlir_aot.load(library)
        f = m[m.functions[0]]
        for case, want in zip(cases, expected):
            got = f(*[i.numpy() for i in case])
            worst = float(np.max(np.abs(got - want) /
                                 (spec.atol + spec.rtol * np.abs(want))))
            if got.shape != want.shape or not worst <= 1:
                failures.append(
                    "%s %s, inputs %s: max |got - want| = %g (%.1f times the "
                    "tolerance rtol %g, atol %g)"
                    % (name, " ".join(options),
                       [tuple(i.shape) for i in case],
                       float(np.max(np.abs(got - want))), worst, spec.rtol,
                       spec.atol))
    # The export the CPU runs (its batch dynamic where the model's is): the
    # GPU target takes dynamic sizes too. Up to the PTX: ptxas and the host
    # code add more than twice its time on a large model, and are the same
    # for every model (zoo_gpu.py's go through them).
    run = subprocess.run(
        [compiler, path, "--target=cuda:sm_90", "-O3", "--compile-to=ptx",
         "-o", os.path.join(workdir, name + ".ptx")],
        capture_output=True, text=True)
    if run.returncode != 0:
        failures.append("%s --target=cuda:sm_90: aot-compile failed:\n%s"
                        % (name, run.stderr))
    return failures


def main(argv):
    if len(argv) in (2, 3) and argv[1] == "--write-ops":
        return write_ops(argv[2] if len(argv) == 3 else OPS_FILE)
    if len(argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    compiler, names = argv[1], argv[2:]
    failures = []
    with tempfile.TemporaryDirectory(prefix="aot-onnx-zoo-") as workdir:
        for name in names:
            found = check(compiler, name, workdir)
            print("%s: %s" % (name, "ok" if not found else "FAILED"))
            failures += found
    for f in failures:
        print(f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
