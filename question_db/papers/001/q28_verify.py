"""Reproduce 001/28: positive counts in a batch, and ∂L/∂p_CVR by autograd vs the formula."""
import torch

batch, clicks, conversions = 1024, 50, 10
click = torch.zeros(batch)
click[:clicks] = 1
convert = torch.zeros(batch)
convert[:conversions] = 1  # a conversion implies a click
FIGURES = {
    "CTR 正样本数": int(click.sum()),
    "CVR 正样本数（点击子空间内）": int(convert[click == 1].sum()),
    "CTCVR 正样本数": int((click * convert).sum()),
}
for label, value in FIGURES.items():
    print(f"{label}: {value}")

# Gradient of the CTCVR term w.r.t. p_CVR for one sample with weight w.
for y in (1.0, 0.0):
    w, p_ctr = 0.7, torch.tensor(0.3)
    p_cvr = torch.tensor(0.2, requires_grad=True)
    p = p_ctr * p_cvr
    loss = -w * (y * torch.log(p) + (1 - y) * torch.log(1 - p))
    loss.backward()
    formula = -w * (y / p - (1 - y) / (1 - p)) * p_ctr
    print(f"y={y:.0f}: autograd {p_cvr.grad.item():.6f}  formula {formula.item():.6f}")
