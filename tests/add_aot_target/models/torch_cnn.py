"""A small PyTorch CNN for add_aot_target(TORCH_LOADER
models.torch_cnn:load): Conv, BatchNorm, ReLU, MaxPool, a strided Conv,
AveragePool, Flatten, Linear, Softmax, with static shapes and two results
(the logits and their softmax). Weights and batch-norm statistics are
seeded and moved off their defaults (a fresh batch norm is an identity)."""
import torch

from mlir_aot.torch import LoaderOutput


class SmallCnn(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.bn = torch.nn.BatchNorm2d(8)
        self.conv2 = torch.nn.Conv2d(8, 16, 3, stride=2, padding=1)
        self.fc = torch.nn.Linear(16 * 2 * 2, 10)

    def forward(self, x):
        x = torch.relu(self.bn(self.conv1(x)))
        x = torch.nn.functional.max_pool2d(x, 2)
        x = torch.nn.functional.avg_pool2d(torch.relu(self.conv2(x)), 2)
        logits = self.fc(torch.flatten(x, 1))
        return logits, torch.softmax(logits, dim=-1)


def make():
    torch.manual_seed(0)
    model = SmallCnn()
    with torch.no_grad():
        model.bn.running_mean.uniform_(-0.5, 0.5)
        model.bn.running_var.uniform_(0.5, 1.5)
        model.bn.weight.uniform_(0.5, 1.5)
        model.bn.bias.uniform_(-0.2, 0.2)
    return model


def load():
    model = make()
    return LoaderOutput(model, (torch.randn(2, 3, 16, 16),))
