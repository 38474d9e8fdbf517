"""Reproduce 001/17: ViT sequence length for 224×224 with 14×14 patches, and head size."""
import torch
import torch.nn as nn

embed = nn.Conv2d(3, 768, kernel_size=14, stride=14)
tokens = embed(torch.zeros(1, 3, 224, 224)).flatten(2).transpose(1, 2)
attn = nn.MultiheadAttention(768, num_heads=12, batch_first=True)
FIGURES = {"sequence length": tokens.shape[1] + 1, "head dim": attn.head_dim}
print(f"patch tokens {tokens.shape[1]} + [CLS] = {tokens.shape[1] + 1}; "
      f"head dim = 768 / 12 = {attn.head_dim}")
