"""The desktop application (PySide6). Built by the desktop-app issue."""
