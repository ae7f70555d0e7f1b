"""Facts about the machine that benchmarks print beside their figures."""

from __future__ import annotations

import os
import platform
from typing import Any


def machine() -> dict[str, Any]:
    """Facts about this machine to print beside the figures: Python version, architecture,
    logical CPU count and processor model (from ``/proc/cpuinfo`` where it exists, else
    :func:`platform.processor`)."""
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "processor": model,
    }
