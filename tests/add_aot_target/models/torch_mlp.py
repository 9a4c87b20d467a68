"""A PyTorch MLP for add_aot_target(TORCH_LOADER torch_mlp:load): Linear,
LayerNorm, GELU (erf), Linear, exported with a dynamic batch dim. Weights
are seeded, and the norm's scale and shift moved off their defaults (1, 0)
so that every layer changes the result."""
import torch

from mlir_aot.torch import LoaderOutput


class Mlp(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.l1 = torch.nn.Linear(16, 32)
        self.norm = torch.nn.LayerNorm(32)
        self.l2 = torch.nn.Linear(32, 8)

    def forward(self, x):
        return self.l2(torch.nn.functional.gelu(self.norm(self.l1(x))))


def make():
    torch.manual_seed(0)
    model = Mlp()
    with torch.no_grad():
        model.norm.weight.uniform_(0.5, 1.5)
        model.norm.bias.uniform_(-0.2, 0.2)
    return model


def load():
    model = make()
    return LoaderOutput(model, [torch.randn(5, 16)], dynamic_dims={0: [0]})
