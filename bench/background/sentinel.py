#!/usr/bin/python3
"""The user's own app for bench:background: a small GTK 3 window with one text view.

A simulated user types into it through XTest while Deskpilot works in other apps. Every
key it receives is counted on stdout ("key <keyval>"), and every time it loses or gains
the focus ("focus out", "focus in"), so the bench can tell lost and stray keystrokes and
focus steals apart without reading the tree. Run with /usr/bin/python3 (Debian's python3-gi).
"""
import signal
import sys

import gi

gi.require_version("Gtk", "3.0")
gi.require_version("Gdk", "3.0")
from gi.repository import Gdk, GLib, Gtk  # noqa: E402


def main():
    window = Gtk.Window(title="Sentinel")
    window.set_default_size(320, 160)
    window.move(1500, 900)
    view = Gtk.TextView()
    window.add(view)

    def on_key(_widget, event):
        print(f"key {Gdk.keyval_name(event.keyval)}", flush=True)
        return False

    window.connect("key-press-event", on_key)
    window.connect("focus-in-event", lambda *_: print("focus in", flush=True))
    window.connect("focus-out-event", lambda *_: print("focus out", flush=True))
    window.connect("destroy", Gtk.main_quit)
    GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGTERM, Gtk.main_quit)
    window.show_all()
    view.grab_focus()
    print("ready", flush=True)
    Gtk.main()


if __name__ == "__main__":
    sys.exit(main())
