"""The signed sheet as evidence in a real Chromium (issue 23, item 4): at an event that keeps a photo of
every self-entered sheet, the director's verify asks for one; a phone at the table (390×844) takes the
photo through its file input; the director sees it beside the grid and verifies; anyone else asking for
the photo gets the log-in page, never the picture. Screenshots go to build/screenshots/."""

from __future__ import annotations

from io import BytesIO

import pytest

from .conftest import horizontal_overflow, log_in, screenshot, serious_violations
from .test_self_entry import phone, prove

pytestmark = pytest.mark.browser


def sheet_photo() -> bytes:
    """A phone's photo of a sheet: lines of ink on paper, with a camera's EXIF and a place."""
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (1600, 1200), (246, 244, 236))
    draw = ImageDraw.Draw(image)
    for row in range(12):
        draw.line((80, 120 + row * 80, 1520, 120 + row * 80), fill=(40, 40, 90), width=4)
        draw.text((100, 70 + row * 80), f"Deal {row + 1}   23   15   0   77", fill=(20, 20, 20))
    exif = Image.Exif()
    exif[0x010F] = "PhoneMaker"
    exif.get_ifd(0x8825).update({1: "N", 2: (18.0, 0.0, 5.0)})
    out = BytesIO()
    image.save(out, "JPEG", quality=85, exif=exif.tobytes())
    return out.getvalue()


def acknowledge(page) -> None:
    """Tick the verify form's acknowledgement of the example sheet's warnings, when it has some."""
    box = page.locator("input[name='acknowledge']")
    if box.count():
        box.check()


def test_a_phone_photographs_the_signed_sheet_and_only_the_director_sees_it_at_verify(
    live_server, browser, page, reader, played, director
):
    from playwright.sync_api import expect

    from scoring.models import SheetPhoto
    from scoring.photos import has_metadata
    from scoring.services import self_entry as service
    from tests.scoring.self_entry_support import deal_one_data, phone_url, seat_code, table_token

    game_set = played
    event = game_set.table.round.event
    service.self_entry_mode_set(event=event, user=director, mode="record", photo_required=True)
    token = table_token(game_set)
    # Deal 1 as the table entered it (the same as recorded: it closes by itself): a self-entered set.
    service.self_entry_submit(
        key=game_set.table.keys.get(),
        seat=1,
        seat_code=seat_code(game_set, 1),
        device="phone-ann-0000001",
        data=deal_one_data(),
        idempotency_key="deal-1",
    )
    base = live_server.url
    table = f"/e/{event.slug}/direct/r/1/t/1/"

    # The director's verify asks for the photo first.
    log_in(page, base, table)
    expect(page.locator("#photo-needed")).to_contain_text("photograph the signed sheet")
    acknowledge(page)
    page.click("text=Verify set")
    expect(page.locator("#verify-refused")).to_contain_text("Round 1, table 1 entered its own deals")

    # Bob's phone takes the photo: the file input is the phone's camera.
    context, bob = phone(browser, f"{base}{phone_url(token)}")
    try:
        # In large type, as every phone state is checked (issue 23, item 6).
        bob.click("[data-large-toggle]")
        expect(bob.locator("[data-large-toggle]")).to_have_attribute("aria-pressed", "true")
        # Every deal is in: the photo's card is open (while deals are due it is folded).
        expect(bob.locator("#sheet-photo details")).to_have_attribute("open", "")
        form = bob.locator("#sheet-photo form")
        prove(form, game_set, 2)
        form.locator("input[type='file']").set_input_files(
            {"name": "IMG_0001.jpg", "mimeType": "image/jpeg", "buffer": sheet_photo()}
        )
        assert horizontal_overflow(bob) == 0
        assert serious_violations(bob) == []
        screenshot(bob, "sheet-photo-phone")
        form.locator("text=Send the photo to the director").click()
        expect(bob.locator("main")).to_contain_text("Photo of the signed sheet sent by seat 2 (Bob)")
        assert horizontal_overflow(bob) == 0
        assert serious_violations(bob) == []
    finally:
        context.close()
    photo = SheetPhoto.objects.get(game_set=game_set)
    assert not has_metadata(bytes(photo.data))

    # The director sees it beside the grid, loaded, and verifies.
    page.goto(f"{base}{table}")
    picture = page.locator("#sheet-photos img")
    expect(picture).to_have_count(1)
    expect(page.locator("#sheet-photos")).to_contain_text("Taken by seat 2 (Bob)")
    expect(page.locator("#photo-needed")).to_have_count(0)
    assert picture.evaluate("image => image.complete && image.naturalWidth") == photo.width
    assert serious_violations(page) == []
    screenshot(page, "sheet-photo-director")
    acknowledge(page)
    page.click("text=Verify set")
    expect(page.locator("main")).to_contain_text("Set verified")

    # Anyone else asking for the photo gets the log-in page, never the picture.
    address = picture.get_attribute("src")
    answer = reader.goto(f"{base}{address}")
    assert answer is not None and answer.headers["content-type"].startswith("text/html")
    expect(reader.locator("#id_username")).to_be_visible()
