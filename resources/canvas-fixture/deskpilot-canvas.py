#!/usr/bin/python3
"""Deskpilot's canvas fixture: a window that paints its buttons and text on a drawing area.

The drawing area has no accessible children, like a canvas or game UI: only OCR can find
"Submit" on it. Clicking a painted button changes what is painted and prints a line on
stdout ("clicked: Submit"), after a first "ready" line. A real password entry sits beside the
canvas, so tests can check that captures black it out. The painted lines in TEXT are the
ground truth bench:vision scores OCR against. Run with /usr/bin/python3 (Debian's python3-gi).
"""
import json
import signal
import sys

import gi

gi.require_version("Gtk", "3.0")
gi.require_version("Pango", "1.0")
gi.require_version("PangoCairo", "1.0")
from gi.repository import GLib, Gtk, Pango, PangoCairo  # noqa: E402

WIDTH, HEIGHT = 1280, 800
CANVAS_WIDTH = 1000
PASSWORD = "hunter2-secret"

# (text, size in px): the sizes UIs use, from small print to headings.
TEXT = [
    ("Quarterly report for the northern region", 22),
    ("Revenue grew by twelve percent over the last quarter", 15),
    ("Open invoices are listed below with their due dates", 13),
    ("Invoice 2041 from Acme Supplies is due on March 3", 13),
    ("Invoice 2042 from Blue Harbor Logistics is due on March 9", 13),
    ("Shipping to Lisbon and Porto resumes next Monday", 12),
    ("Contact the finance team before approving any payment", 11),
]

BUTTONS = [("Submit", 40, 520), ("Cancel", 220, 520)]
BUTTON_SIZE = (150, 44)


class Canvas(Gtk.Window):
    def __init__(self):
        super().__init__(title="Deskpilot Canvas")
        self.set_default_size(WIDTH, HEIGHT)
        self.move(0, 0)
        self.connect("destroy", Gtk.main_quit)
        self.submitted = False

        row = Gtk.Box(orientation=Gtk.Orientation.HORIZONTAL, spacing=12)
        self.area = Gtk.DrawingArea()
        self.area.set_size_request(CANVAS_WIDTH, HEIGHT)
        self.area.add_events(0x100)  # Gdk.EventMask.BUTTON_PRESS_MASK
        self.area.connect("draw", self.draw)
        self.area.connect("button-press-event", self.press)
        row.pack_start(self.area, False, False, 0)

        side = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=8, margin=12)
        label = Gtk.Label(label="Password")
        secret = Gtk.Entry()
        secret.set_visibility(False)
        secret.set_text(PASSWORD)
        label.set_mnemonic_widget(secret)
        side.pack_start(label, False, False, 0)
        side.pack_start(secret, False, False, 0)
        row.pack_start(side, True, True, 0)
        self.add(row)

    def text(self, context, text, size, x, y, colour=(0.1, 0.1, 0.1)):
        layout = PangoCairo.create_layout(context)
        font = Pango.FontDescription("Sans")
        font.set_absolute_size(size * Pango.SCALE)
        layout.set_font_description(font)
        layout.set_text(text, -1)
        context.set_source_rgb(*colour)
        context.move_to(x, y)
        PangoCairo.show_layout(context, layout)

    def draw(self, _area, context):
        context.set_source_rgb(1, 1, 1)
        context.paint()
        y = 30
        for text, size in TEXT:
            self.text(context, text, size, 40, y)
            y += size * 2 + 18
        for name, x, top in BUTTONS:
            width, height = BUTTON_SIZE
            context.set_source_rgb(0.2, 0.4, 0.8) if name == "Submit" else context.set_source_rgb(0.85, 0.85, 0.85)
            context.rectangle(x, top, width, height)
            context.fill()
            shown = "Sent" if name == "Submit" and self.submitted else name
            colour = (1, 1, 1) if name == "Submit" else (0.1, 0.1, 0.1)
            self.text(context, shown, 16, x + 40, top + 12, colour)
        if self.submitted:
            self.text(context, "Thank you, the report was submitted", 16, 40, 600, (0.1, 0.5, 0.1))
        return False

    def press(self, _area, event):
        for name, x, top in BUTTONS:
            width, height = BUTTON_SIZE
            if x <= event.x <= x + width and top <= event.y <= top + height:
                if name == "Submit":
                    self.submitted = True
                print(f"clicked: {name}", flush=True)
                self.area.queue_draw()
        return True


def main():
    if "--truth" in sys.argv:
        # The painted text and buttons, for bench:vision; no display needed.
        print(json.dumps({"lines": [text for text, _size in TEXT], "buttons": [name for name, _x, _y in BUTTONS]}))
        return
    signal.signal(signal.SIGTERM, lambda *_args: Gtk.main_quit())
    window = Canvas()
    window.show_all()
    GLib.idle_add(lambda: print("ready", flush=True) and False)
    Gtk.main()


if __name__ == "__main__":
    main()
