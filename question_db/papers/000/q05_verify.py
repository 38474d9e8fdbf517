"""Reproduce 000/5: ViT-B/16 patch projection parameters, counted on a real module."""
import torch.nn as nn

proj = nn.Conv2d(3, 768, kernel_size=16, stride=16, bias=False)  # how ViT implements it
patches = (224 // 16) ** 2
FIGURES = {"patch projection weights": proj.weight.numel()}
print(f"patches: {patches}, flattened patch: {16 * 16 * 3}, "
      f"projection weights: {proj.weight.numel():,} = 768 × 768")
print(f"option A (768 × 3072) would be {768 * 3072:,}: the MLP's fc1, not the projection")
