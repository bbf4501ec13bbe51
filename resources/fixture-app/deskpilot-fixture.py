#!/usr/bin/python3
"""Deskpilot's fixture app: one GTK3 window with every widget kind the integration tests act on.

Accessible names are set explicitly so tests can find widgets by name. Every status change is
also printed to stdout ("status: ..."), after a first "ready" line, so a test can tell an
action landed without reading the tree. Run with /usr/bin/python3: it needs Debian's python3-gi.
"""
import signal
import sys

import gi

gi.require_version("Gtk", "3.0")
gi.require_version("Gdk", "3.0")
from gi.repository import Gdk, GLib, Gtk  # noqa: E402

WIDTH, HEIGHT = 800, 600
DRAG_TEXT = "Drag me"


def named(widget, name):
    widget.get_accessible().set_name(name)
    return widget


def click_label(count):
    return f"Clicked {count} time" if count == 1 else f"Clicked {count} times"


class Fixture(Gtk.Window):
    def __init__(self):
        super().__init__(title="Deskpilot Fixture")
        # Fixed size and place, so coordinates are the same on every run.
        self.set_size_request(WIDTH, HEIGHT)
        self.set_resizable(False)
        self.move(0, 0)
        self.connect("destroy", Gtk.main_quit)
        self.clicks = 0

        columns = Gtk.Box(orientation=Gtk.Orientation.HORIZONTAL, spacing=24, margin=16)
        columns.pack_start(self.build_controls(), True, True, 0)
        columns.pack_start(self.build_list(), False, False, 0)
        self.add(columns)

    def build_controls(self):
        box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=10)

        self.counter = Gtk.Button(label=click_label(0))
        named(self.counter, click_label(0))
        self.counter.connect("clicked", self.on_clicked)
        box.pack_start(self.counter, False, False, 0)

        toggle = named(Gtk.CheckButton(label="Enable feature"), "Enable feature")
        toggle.connect("toggled", lambda button: self.set_status(f"Enable feature {'on' if button.get_active() else 'off'}"))
        box.pack_start(toggle, False, False, 0)

        scale = Gtk.Scale.new_with_range(Gtk.Orientation.HORIZONTAL, 0, 100, 1)
        scale.set_value(50)
        named(scale, "Volume")
        scale.connect("value-changed", lambda widget: self.set_status(f"Volume {widget.get_value():g}"))
        box.pack_start(self.labelled("Volume", scale), False, False, 0)

        name = named(Gtk.Entry(), "Name")
        name.connect("changed", lambda entry: self.set_status(f"Name: {entry.get_text()}"))
        box.pack_start(self.labelled("Name", name), False, False, 0)

        password = named(Gtk.Entry(visibility=False), "Password")
        # The status never echoes the secret itself; tests check redaction elsewhere.
        password.connect("changed", lambda entry: self.set_status(f"Password: {entry.get_text_length()} characters"))
        box.pack_start(self.labelled("Password", password), False, False, 0)

        self.status = named(Gtk.Label(label="Ready", xalign=0), "Ready")
        box.pack_start(self.status, False, False, 0)

        drag_row = Gtk.Box(orientation=Gtk.Orientation.HORIZONTAL, spacing=24)
        drag_row.pack_start(self.build_drag_source(), False, False, 0)
        drag_row.pack_start(self.build_drop_zone(), True, True, 0)
        box.pack_start(drag_row, False, False, 12)
        return box

    def labelled(self, text, widget):
        row = Gtk.Box(orientation=Gtk.Orientation.HORIZONTAL, spacing=8)
        label = Gtk.Label(label=text, xalign=0, width_chars=9)
        label.set_mnemonic_widget(widget)  # gives the widget a labelled-by relation
        row.pack_start(label, False, False, 0)
        row.pack_start(widget, True, True, 0)
        return row

    def build_list(self):
        items = named(Gtk.ListBox(), "Items")
        for number in range(1, 201):
            row = Gtk.ListBoxRow()
            row.add(Gtk.Label(label=f"Item {number}", xalign=0, margin=4))
            items.add(named(row, f"Item {number}"))
        items.connect("row-selected", lambda _box, row: row and self.set_status(f"Selected {row.get_accessible().get_name()}"))
        scroller = Gtk.ScrolledWindow(hscrollbar_policy=Gtk.PolicyType.NEVER, vscrollbar_policy=Gtk.PolicyType.AUTOMATIC)
        scroller.set_size_request(240, 300)
        scroller.add(items)
        holder = Gtk.Box(orientation=Gtk.Orientation.VERTICAL)
        holder.pack_start(scroller, False, False, 0)
        return holder

    def build_drag_source(self):
        # Real GTK drag and drop (XDND), as third-party apps do it. With synthetic XTest input it
        # needs paced motion: ~10 moves 5-16 ms apart land every time, unpaced jumps almost never.
        source = named(Gtk.Button(label=DRAG_TEXT), DRAG_TEXT)
        source.set_size_request(140, 60)
        # Move as well as copy, so a held Shift or Ctrl (which pick those actions) still drops.
        source.drag_source_set(Gdk.ModifierType.BUTTON1_MASK, [], Gdk.DragAction.COPY | Gdk.DragAction.MOVE)
        source.drag_source_add_text_targets()
        source.connect("drag-data-get", lambda _widget, _context, data, _info, _time: data.set_text(DRAG_TEXT, -1))
        return source

    def build_drop_zone(self):
        self.drop_label = named(Gtk.Label(label="Drop here"), "Drop here")
        zone = Gtk.EventBox()
        zone.set_size_request(200, 60)
        frame = Gtk.Frame()
        frame.add(self.drop_label)
        zone.add(frame)
        zone.drag_dest_set(Gtk.DestDefaults.ALL, [], Gdk.DragAction.COPY | Gdk.DragAction.MOVE)
        zone.drag_dest_add_text_targets()
        zone.connect("drag-data-received", self.on_drop)
        return zone

    def on_clicked(self, button):
        self.clicks += 1
        text = click_label(self.clicks)
        button.set_label(text)
        named(button, text)
        self.set_status(text)

    def on_drop(self, _widget, _context, _x, _y, data, _info, _time):
        text = f"Dropped: {data.get_text()}"
        self.drop_label.set_text(text)
        named(self.drop_label, text)
        self.set_status(text)

    def set_status(self, text):
        self.status.set_text(text)
        named(self.status, text)
        print(f"status: {text}", flush=True)


def main():
    window = Fixture()

    def announce(*_args):
        # Once only: a window manager exiting unmaps and remaps the window.
        window.disconnect(announcement)
        print("ready", flush=True)
        return False

    announcement = window.connect("map-event", announce)
    for signal_number in (signal.SIGTERM, signal.SIGINT):
        GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal_number, Gtk.main_quit)
    window.show_all()
    Gtk.main()
    return 0


if __name__ == "__main__":
    sys.exit(main())
