"""Helpers shared by scripts/differential and scripts/differential-random: running a tool
under a time limit, the first line of its error message, and the counts of an .aut file."""

import subprocess
import time


def run(cmd, limit, cwd=None):
    """(returncode or 'timeout', stdout, stderr, seconds)."""
    t = time.time()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=max(0.5, limit), cwd=cwd)
        return p.returncode, p.stdout, p.stderr, time.time() - t
    except subprocess.TimeoutExpired:
        return "timeout", "", "", time.time() - t


def first_error(err):
    for line in err.splitlines():
        line = line.strip()
        if line and not line.startswith("×") and "muon::" not in line:
            return line[:160]
        if line.startswith("×"):
            return line[1:].strip()[:160]
    return "no message"


def aut_counts(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        head = f.readline()
        labels = set()
        for line in f:
            i, j = line.find('"'), line.rfind('"')
            if 0 <= i < j:
                labels.add(line[i + 1 : j])
            else:
                parts = line.strip().strip("()").split(",")
                if len(parts) >= 3:
                    labels.add(",".join(parts[1:-1]))
    nums = head[head.index("(") + 1 : head.index(")")].split(",")
    return int(nums[2]), int(nums[1]), len(labels)
