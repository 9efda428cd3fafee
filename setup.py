"""Packaging step pyproject.toml cannot say: copy the schemas and the shipped games (the repository's
top-level schemas/, counters/ and maps/, kept there for designers) into the wheel as builder/_shipped/.
builder/shipped.py finds them there when installed, and in the checkout otherwise."""

from pathlib import Path
import shutil

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
SHIPPED = {"schemas": ("*.json",), "counters": ("*.yaml", "*.yml"), "maps": ("*.yaml", "*.yml")}


class BuildPyWithShippedData(build_py):
    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):  # an editable install reads the checkout itself
            return
        dest = Path(self.build_lib) / "builder" / "_shipped"
        for folder, patterns in SHIPPED.items():
            src = ROOT / folder
            if not src.is_dir():
                raise SystemExit(f"setup.py: {src} is missing; cannot package the shipped data")
            target = dest / folder
            if target.exists():
                shutil.rmtree(target)
            for pattern in patterns:
                for f in sorted(src.rglob(pattern)):
                    out = target / f.relative_to(src)
                    out.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copyfile(f, out)


setup(cmdclass={"build_py": BuildPyWithShippedData})
