"""Reproduce 001/27's figures: KL of a diagonal Gaussian, and undoing β and the batch."""
import torch

# (1) closed form vs a Monte-Carlo estimate on a small latent
mu, logvar = torch.randn(16) * 0.5, torch.randn(16) * 0.3
closed = 0.5 * (mu**2 + logvar.exp() - logvar - 1).sum()
q = torch.distributions.Normal(mu, (0.5 * logvar).exp())
p = torch.distributions.Normal(torch.zeros(16), torch.ones(16))
exact = torch.distributions.kl_divergence(q, p).sum()
print(f"closed form {closed:.6f} vs torch.distributions {exact:.6f}")

# (2) L_kl = β·D_KL summed over the batch, as the question states it
beta, batch, loss = 1e-6, 4, 0.32
dims = 64 * 64 * 4
per_image = loss / beta / batch
FIGURES = {
    "单张图像 KL（D_KL，按 batch 求和口径）": per_image,
    "平均每个 latent 维度的 KL": per_image / dims,
}
for label, value in FIGURES.items():
    print(f"{label}: {value:.6g} nats")
print(f"(batch-mean reading, as LDM's code averages: {loss / beta / dims:.4g} nats per dim)")
