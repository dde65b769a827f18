"""Train the luck net (rust/bot/src/net/luck.rs) on the data of the `luck_data` example.

The net predicts, for each of the 21 rolls, the rollouts' net policy's value of its play of
that roll. Only the differences between rolls matter to a rollout (it subtracts the value of
the roll thrown minus the mean over the rolls), so the loss is on values centred on their mean
over the 36 outcomes, and the figure reported is how many times the net tracks that luck: the
luck's variance over the variance of what the net leaves of it, on held-out positions.

    E="cargo run --release -p gammon-bot --example luck_data --"
    $E 600000 21 /tmp/lc-a.bin contact && $E 900000 27 /tmp/lc-b.bin contact
    $E 1500000 28 /tmp/lc-c.bin contact && $E 1500000 29 /tmp/lc-d.bin contact
    $E 60000 22 /tmp/lc-test.bin contact
    $E 200000 23 /tmp/lr-train.bin race && $E 40000 24 /tmp/lr-test.bin race
    $E 200000 25 /tmp/lb-train.bin bearoff && $E 40000 26 /tmp/lb-test.bin bearoff
    python tools/train_luck.py \
        --contact /tmp/lc-a.bin /tmp/lc-b.bin /tmp/lc-c.bin /tmp/lc-d.bin /tmp/lc-test.bin \
        --race /tmp/lr-train.bin /tmp/lr-test.bin --bearoff /tmp/lb-train.bin /tmp/lb-test.bin \
        --epochs 24 --out rust/bot/data/luck-v2.bin --fixture rust/bot/tests/fixtures/luck_values.txt

Each class takes training files, then one test file (the last).

A development tool: it needs PyTorch (`pip install torch`), which the package does not.
"""

from __future__ import annotations

import argparse
import os
import struct

import numpy as np
import torch

INPUTS = 226
FEATURES = 11
RECORD = INPUTS + 21 * FEATURES + 21
# ALL_ROLLS order: the six doubles, then the 15 others, each twice as likely.
WEIGHTS = np.array([1.0] * 6 + [2.0] * 15, dtype=np.float32) / 36.0


def load(*paths: str):
    """Inputs, roll features and the 21 values of every position in `paths`, in one array (read
    file by file into it: the contact data run to several gigabytes)."""
    sizes = [os.path.getsize(p) // (4 * RECORD) for p in paths]
    a = np.empty((sum(sizes), RECORD), dtype=np.float32)
    start = 0
    for path, size in zip(paths, sizes):
        with open(path, "rb") as file:
            file.readinto(memoryview(a[start : start + size]).cast("B"))
        start += size
    x = a[:, :INPUTS]
    f = a[:, INPUTS : INPUTS + 21 * FEATURES].reshape(-1, 21, FEATURES)
    return x, f, a[:, INPUTS + 21 * FEATURES :]


def centred(v):
    return v - (v * WEIGHTS).sum(-1, keepdims=True)


def tracks(values, predicted) -> float:
    """The luck's variance over the variance of what `predicted` leaves of it."""
    luck, left = centred(values), centred(values - predicted)
    return float((luck * luck * WEIGHTS).sum() / (left * left * WEIGHTS).sum())


class LuckNet(torch.nn.Module):
    """One hidden layer of rectified units, narrowed linearly to `narrow` values from which every
    roll's value and every roll feature's worth are read."""

    def __init__(self, hidden: int, narrow: int):
        super().__init__()
        self.hidden = torch.nn.Linear(INPUTS, hidden)
        self.narrow = torch.nn.Linear(hidden, narrow, bias=False)
        self.value = torch.nn.Linear(narrow, 21)
        self.worth = torch.nn.Linear(narrow, 21 * FEATURES)

    def forward(self, x, f):
        z = self.narrow(torch.relu(self.hidden(x)))
        return self.value(z) + (self.worth(z).view(-1, 21, FEATURES) * f).sum(2)


def train(paths, hidden: int, narrow: int, epochs: int, seed: int) -> LuckNet:
    torch.manual_seed(seed)
    x, f, v = load(*paths[:-1])
    xt, ft, vt = load(paths[-1])
    net = LuckNet(hidden, narrow)
    w = torch.tensor(WEIGHTS)
    # Views of the data, not copies.
    x, f, y = torch.from_numpy(x), torch.from_numpy(f), torch.from_numpy(centred(v))
    xt, ft = torch.tensor(xt), torch.tensor(ft)
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    for epoch in range(epochs):
        # The step falls to 0.0003 for the last 30% of the epochs and to 0.0001 for the last 10%.
        for at, lr in ((0.7, 3e-4), (0.9, 1e-4)):
            if epoch == int(at * epochs):
                for group in opt.param_groups:
                    group["lr"] = lr
        order = torch.randperm(len(x))
        for i in range(0, len(x), 256):
            k = order[i : i + 256]
            p = net(x[k], f[k])
            p = p - (p * w).sum(1, keepdim=True)
            loss = (((p - y[k]) ** 2) * w).sum(1).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        with torch.no_grad():
            print(
                f"{paths[-1]}: epoch {epoch + 1}, tracks the luck {tracks(vt, net(xt, ft).numpy()):.2f} times",
                flush=True,
            )
    return net


def weights(net: LuckNet) -> bytes:
    def floats(t) -> bytes:
        a = np.ascontiguousarray(t.detach().numpy(), dtype="<f4")
        return a.tobytes()

    out = struct.pack("<II", net.hidden.out_features, net.narrow.out_features)
    out += floats(net.hidden.weight.T) + floats(net.hidden.bias) + floats(net.narrow.weight)
    out += floats(net.value.weight) + floats(net.value.bias)
    out += floats(net.worth.weight) + floats(net.worth.bias)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    for kind in ("contact", "race", "bearoff"):
        parser.add_argument(
            f"--{kind}", nargs="+", required=True, metavar="FILE", help="training files, then the test file"
        )
    parser.add_argument("--contact-hidden", type=int, default=128)
    parser.add_argument("--race-hidden", type=int, default=64)
    parser.add_argument("--bearoff-hidden", type=int, default=64)
    parser.add_argument("--narrow", type=int, default=32)
    parser.add_argument("--epochs", type=int, default=24, help="passes over the data (24 made luck-v2)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", required=True)
    parser.add_argument("--fixture", help="write the nets' values of a few test positions here")
    args = parser.parse_args()
    torch.set_num_threads(2)
    nets = {
        kind: train(getattr(args, kind), getattr(args, f"{kind}_hidden"), args.narrow, args.epochs, args.seed)
        for kind in ("contact", "race", "bearoff")
    }
    with open(args.out, "wb") as out:
        out.write(b"GLUCK02\n" + b"".join(weights(net) for net in nets.values()))
    if args.fixture:
        cases = []
        for kind, net in nets.items():
            test = getattr(args, kind)[-1]
            x, f, _ = load(test)
            with open(test + ".ids") as ids:
                names = [next(ids).strip() for _ in range(6)]
            with torch.no_grad():
                values = net(torch.tensor(x[:6]), torch.tensor(f[:6])).numpy()
            cases += [f"{n} {kind} " + " ".join(f"{e:.7f}" for e in v) for n, v in zip(names, values)]
        with open(args.fixture, "w") as out:
            out.write(
                "# position ID, class, the luck net's 21 equities (ALL_ROLLS order), by tools/train_luck.py\n"
            )
            out.write("\n".join(cases) + "\n")


if __name__ == "__main__":
    main()
