"""What the offline bundles leave out: one set of rules for the PyInstaller bundle
(packaging/aisizer.spec) and the Windows folder built on Linux (packaging/build_windows.py).

A widgets-only, offline app needs neither Qt's QML, Quick, Designer, WebEngine, multimedia or
network modules, nor their plugins, nor Qt's translations other than German and English, nor
test tools. :func:`wanted` decides for one path inside the bundle; paths are compared with
forward slashes, so the same rules hold for Windows paths.
"""

from __future__ import annotations

import re

# Modules the program never uses (Qt modules, test tools, Tk, notebook integrations).
# QtOpenGL and QtOpenGLWidgets stay: pyqtgraph imports them when it loads.
QT_UNUSED = [
    "QtNetwork", "QtQml", "QtQuick", "QtQuick3D", "QtQuickWidgets", "QtQuickControls2",
    "QtQuickTest", "QtWebEngineCore", "QtWebEngineWidgets", "QtWebEngineQuick", "QtWebChannel",
    "QtWebSockets", "QtWebView", "Qt3DCore", "Qt3DRender", "Qt3DInput", "Qt3DLogic",
    "Qt3DExtras", "Qt3DAnimation", "QtMultimedia", "QtMultimediaWidgets", "QtSpatialAudio",
    "QtPdf", "QtPdfWidgets", "QtDesigner", "QtHelp", "QtSql", "QtUiTools", "QtXml",
    "QtConcurrent", "QtTest", "QtBluetooth", "QtNfc",
    "QtPositioning", "QtLocation", "QtSensors", "QtSerialPort", "QtSerialBus",
    "QtRemoteObjects", "QtScxml", "QtStateMachine", "QtTextToSpeech", "QtHttpServer",
    "QtCharts", "QtDataVisualization", "QtGraphs", "QtAxContainer", "QtGraphsWidgets",
]
PYTHON_UNUSED = [f"PySide6.{module}" for module in QT_UNUSED] + [
    "tkinter", "_tkinter", "turtle", "turtledemo", "idlelib", "test", "lib2to3",
    "pyqtgraph.opengl", "pyqtgraph.examples", "pyqtgraph.jupyter", "OpenGL",
    "IPython", "jupyter_rfb", "matplotlib", "scipy", "pandas", "cupy", "numba",
    "pytest", "_pytest", "pytestqt", "hypothesis", "importlinter", "grimp", "ruff",
    "PyInstaller", "pip", "setuptools", "pkg_resources", "wheel",
    # Pillow is needed (reportlab and pyHanko import it), but not its AVIF and WebP codecs.
    "PIL._avif", "PIL.AvifImagePlugin", "PIL._webp", "PIL.WebPImagePlugin", "PIL.ImageTk",
    "PIL._imagingtk", "PIL.ImageQt",
]


# Qt files a widgets-only, offline app never loads.
KEEP_PLATFORMS = ("qxcb", "qwayland", "qoffscreen", "qminimal.", "qwindows", "qcocoa",
                  "qdirect2d")
KEEP_TRANSLATIONS = re.compile(r"^(qtbase|qt)_(de|en)\.qm$")
DROP_PLUGIN_FOLDERS = {
    "egldeviceintegrations", "networkinformation", "tls", "qmltooling", "sqldrivers",
    "designer", "multimedia", "position", "generic", "vectorimageformats", "sceneparsers",
    "renderers", "renderplugins", "geometryloaders", "texttospeech", "webview", "canbus",
    "wayland-graphics-integration-server", "qmllint", "scxmldatamodel", "help",
}
DROP_IMAGE_FORMATS = ("qpdf", "qtiff", "qwebp", "qtga", "qwbmp")
DROP_LIBRARIES = re.compile(
    r"Qt6?(Quick|Qml|Pdf|WebEngine|WebChannel|WebSockets|3D|Multimedia|SpatialAudio|Designer|"
    r"Labs|Lottie|WaylandCompositor|WaylandEglCompositor|WlShell|Help|Sql|Test|UiTools|Charts|"
    r"DataVisualization|Graphs|ShaderTools|VirtualKeyboard|Positioning|Location|Sensors|"
    r"SerialPort|Bluetooth|Nfc|RemoteObjects|Scxml|StateMachine|TextToSpeech|HttpServer|"
    r"EglFS|EglFsKms|Network)")


# Plugins that would pull in libraries the bundle must not mix with the target's: the GTK
# platform theme needs the system's GTK 3 and would load it beside bundled cairo/pango.
DROP_PLUGINS = ("qgtk3", "libwl-shell-plugin", "ivi-shell", "fullscreen-shell")
# Loaded with dlopen(), so no other library names them: never prune these.
KEEP_DLOPENED = ("libdbus-1",)


def wanted(dest: str) -> bool:
    path = dest.replace("\\", "/")
    parts = path.split("/")
    name = parts[-1]
    if DROP_LIBRARIES.search(name) and not name.endswith((".py", ".pyc", ".pyi")):
        return False  # the library, and the links to it PyInstaller puts at the top
    if "PySide6" not in parts:
        return True
    if "translations" in parts:
        return bool(KEEP_TRANSLATIONS.match(name))
    if "plugins" in parts:
        folder = parts[parts.index("plugins") + 1] if len(parts) > parts.index("plugins") + 1 \
            else ""
        if folder in DROP_PLUGIN_FOLDERS or any(drop in name for drop in DROP_PLUGINS):
            return False
        if folder == "platforms":
            return any(keep in name for keep in KEEP_PLATFORMS)
        if folder == "imageformats":
            return not any(drop in name for drop in DROP_IMAGE_FORMATS)
        return True
    if "qml" in parts:
        return False
    # PySide6 ships its own tools (designer, lupdate, ...) beside the modules: not needed.
    return not (len(parts) == 2 and re.match(
        r"^(designer|assistant|linguist|lupdate|lrelease|uic|rcc|qmlls|qmlformat|qmllint|"
        r"qmlcachegen|qsb|balsam|balsamui|svgtoqml)(\.exe|\.app)?$", name))


# The Windows folder (packaging/build_windows.py) unpacks whole wheels, where PyInstaller
# collects only what is imported; so it also leaves out build-time files (headers, import
# libraries, CMake files, Qt metatypes, type stubs), PySide6's tools and its ICU data for
# WebEngine, test suites, and the Python modules above.
WINDOWS_UNUSED = ["PySide6.QtDBus"]  # no D-Bus on Windows
WINDOWS_DROP_FOLDERS = {"__pycache__", "tests"}
WINDOWS_DROP_SUFFIXES = (".lib", ".pyi", ".exe", ".pdb", ".h", ".hpp", ".cmake", ".prl")
PYSIDE_BUILD_FOLDERS = {"include", "metatypes", "typesystems", "glue", "doc", "scripts", "lib",
                        "resources", "qml"}
# Libraries the Windows build may drop when nothing left imports them (packaging/
# build_windows.py, prune): Qt's own, which come only for the modules they serve.
ORPHAN_CANDIDATE = re.compile(r"^PySide6/(Qt6\w+|pyside6qml\.abi3)\.dll$", re.IGNORECASE)


def _module_path(path: str) -> str:
    """``PIL/_avif.cp313-win_amd64.pyd`` -> ``PIL/_avif``: the module a file implements."""
    head, _, name = path.rpartition("/")
    stem = name.split(".", 1)[0]
    return f"{head}/{stem}" if head else stem


def wanted_windows(path: str) -> bool:
    """Whether ``path`` (relative to site-packages) goes into the Windows folder."""
    path = path.replace("\\", "/")
    parts = path.split("/")
    if not wanted(path):
        return False
    if any(part in WINDOWS_DROP_FOLDERS for part in parts[:-1]):
        return False
    if parts[-1].lower().endswith(WINDOWS_DROP_SUFFIXES):
        return False
    if parts[0] == "PySide6" and len(parts) > 2 and parts[1] in PYSIDE_BUILD_FOLDERS:
        return False
    module = _module_path(path)
    for unused in PYTHON_UNUSED + WINDOWS_UNUSED:
        prefix = unused.replace(".", "/")
        if module == prefix or path.startswith(prefix + "/"):
            return False
    return True


def orphan_candidate(path: str) -> bool:
    return bool(ORPHAN_CANDIDATE.match(path.replace("\\", "/")))
