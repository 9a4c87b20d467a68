"""Loaders of the zoo's small models for add_aot_target(TORCH_LOADER
zoo_gpu:NAME TARGET cuda:sm_90): each returns the zoo's module (seeded
weights) and seeded inputs at the zoo's batch size, with the batch dim
dynamic where the zoo's export has it so, so that the generated test checks
the GPU code against PyTorch's outputs on a GPU machine at the sample's
batch and another (label gpu; scripts/gpu-bundle.sh carries it).
"""
import torch

from mlir_aot.torch import LoaderOutput

import zoo

# The zoo's models that join the GPU bundle: the small ones, and the
# torchvision classifiers whose weights the bundle can carry (it must stay
# under what the GPU machine takes, 64 MiB compressed; ResNet-50's weights
# alone are 100 MB).
GPU_MODELS = ["small_cnn", "mlp", "lstm", "gru", "rnn", "control_flow", "gpt",
              "vit", "transformer_encoder", "transformer_decoder", "upsample",
              "indexing", "audio_encoder", "wave_unet", "video_cnn", "segmenter",
              "squeezenet1_0", "shufflenet_v2_x0_5", "mobilenet_v3_small"]


def _loader(name):
    def load():
        spec = zoo.models()[name]
        torch.manual_seed(0)
        module = spec.make().eval()
        inputs = spec.inputs(spec.batch)
        dims = [0] + sorted(spec.spatial)
        dynamic = [dims] * len(inputs) if spec.dynamic else None
        return LoaderOutput(module, inputs, dynamic_dims=dynamic)
    load.__name__ = name
    return load


for _name in GPU_MODELS:
    globals()[_name] = _loader(_name)
