#!/usr/bin/python3
"""A GTK3 form the way ordinary apps build one, with no accessible names set by hand.

- Labelled entries in a grid whose children GTK lists in reverse: a model that pairs each
  label with the next field would fill Name into City. Each entry is tied to its label with
  set_mnemonic_widget, which gives it an AT-SPI LABELLED_BY relation.
- One entry with no relation at all, only a label to its left.
- A labelled combo box, and an entry that only has placeholder text.
- A button that retitles the window, as editors do on the first keystroke.

Run with /usr/bin/python3: it needs Debian's python3-gi. `--gtk4` builds the same form with
GTK 4 (gir1.2-gtk-4.0), whose accessibility code is a different implementation.
"""
import signal
import sys

import gi

GTK4 = "--gtk4" in sys.argv
gi.require_version("Gtk", "4.0" if GTK4 else "3.0")
from gi.repository import GLib, Gtk  # noqa: E402

loop = GLib.MainLoop()


class Form(Gtk.Window):
    def __init__(self):
        super().__init__(title="Sign up")
        self.set_default_size(480, 320)
        self.connect("destroy" if not GTK4 else "close-request", lambda *_: loop.quit())

        grid = Gtk.Grid(row_spacing=8, column_spacing=12)
        rows = [("Name", "Ada"), ("City", "")]
        for row, (text, value) in enumerate(rows):
            label = Gtk.Label(label=text, xalign=1)
            entry = Gtk.Entry(text=value)
            label.set_mnemonic_widget(entry)
            grid.attach(label, 0, row, 1, 1)
            grid.attach(entry, 1, row, 1, 1)

        # No relation: only where it sits says what it is.
        grid.attach(Gtk.Label(label="Phone", xalign=1), 0, 2, 1, 1)
        grid.attach(Gtk.Entry(), 1, 2, 1, 1)

        plan_label = Gtk.Label(label="Plan", xalign=1)
        plan = Gtk.ComboBoxText()
        for option in ("Free", "Pro"):
            plan.append_text(option)
        plan.set_active(0)
        plan_label.set_mnemonic_widget(plan)
        grid.attach(plan_label, 0, 3, 1, 1)
        grid.attach(plan, 1, 3, 1, 1)

        search = Gtk.Entry(placeholder_text="Search the docs")
        grid.attach(search, 1, 4, 1, 1)

        retitle = Gtk.Button(label="Retitle")
        retitle.connect("clicked", lambda _button: self.set_title("*" + self.get_title()))
        grid.attach(retitle, 1, 5, 1, 1)

        if GTK4:
            self.set_child(grid)
            self.present()
        else:
            self.add(grid)
            self.show_all()
        print("ready", flush=True)


def main():
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGINT, loop.quit)
    if GTK4:
        Gtk.init()
    Form()
    loop.run()


if __name__ == "__main__":
    main()
