from typing import Optional

__all__ = ['__version__', 'debug', 'cuda', 'git_version', 'hip', 'xpu']
__version__ = '2.11.0+cu128'
debug = False
cuda: Optional[str] = '12.8'
git_version = '1c4a8b1f9e2d3a7b6c5d4e3f2a1b0c9d8e7f6a5b'
hip: Optional[str] = None
xpu: Optional[str] = None
