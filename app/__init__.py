"""AI Sizer: offline sizing of AI infrastructure for large language models."""

__version__ = "0.1.0"
APP_NAME = "AI Sizer"
ORG_NAME = "AI Sizer"
