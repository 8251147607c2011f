#!/usr/bin/env python3
# ruff: noqa: E501 (the mail's own lines, kept as the messages write them)
"""Write the synthetic mail corpus of the mail_archive evaluation set into docs/.

Standard library only. Deterministic: fixed dates, Message-IDs and MIME boundaries, so running it
again rewrites byte-identical files. Everyone and every business here is fictional; domains are
example.* and phone numbers come from the 01632 96xxxx / 07700 900xxx drama ranges.

    python3 evalsets/mail_archive/make_corpus.py
"""

from __future__ import annotations

import re
import shutil
from datetime import datetime, timedelta, timezone
from email import policy
from email.headerregistry import Address
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path

HERE = Path(__file__).resolve().parent
DOCS = HERE / "docs"

# ---------------------------------------------------------------- people
ME = ("Isobel Hart", "isobel@kilnlane.example.co.uk")
RAJ = ("Raj Mehta", "raj@mehta-partners.example.co.uk")
SOPHIE = ("Sophie Lund", "sophie@mehta-partners.example.co.uk")
BEV = ("Bev Tanner", "bev@westcountryclay.example.com")
WCS = ("Westcountry Clay Supplies", "orders@westcountryclay.example.com")
OWEN = ("Owen Price", "owen@mendipclay.example.co.uk")
MENDIP = ("Mendip Clay Co.", "trade@mendipclay.example.co.uk")
STUART = ("Stuart Kemble", "stuart@kilncare.example.net")
GEOFF = ("Geoffrey Pike", "g.pike@wallbridgeyard.example.com")
MARK = ("Mark Dyer", "mark@torroofing.example.co.uk")
DAN = ("Dan Whitlock", "dan.whitlock@example.net")
CLARA = ("Clara Hart", "clara.hart@example.org")
MUM = ("Margaret Hart", "margaret.hart@example.net")
AMARA = ("Amara Osei", "amara@thelarder.example.co.uk")
ZOE = ("Zoë Laurent", "zoe.laurent@example.com")
ELODIE = ("Élodie Marchand", "elodie@cafe-brule.example.com")
HATTIE = ("Hattie Lowe", "hattie@bathmakersfair.example.org")
GWEN = ("Gwen Ashby", "gwen.ashby@fromelibrary.example.org")
LOU = ("Lou Carver", "lou@fromesundaymarket.example.org")
BOOKINGS = ("Kiln Lane Bookings", "no-reply@bookings.example.net")
CLASSES = ("Kiln Lane Pottery classes", "classes@kilnlane.example.co.uk")
TARIQ = ("Tariq Aziz", "tariq.aziz@example.net")
OLLIE = ("Ollie Brennan", "ollie.brennan@example.com")
FERN = ("Fern Adebayo", "fern.adebayo@example.org")
CRAFTCOVER = ("Craftcover Insurance", "renewals@craftcover.example.co.uk")
BRIGHTWATT = ("Brightwatt Business Energy", "billing@brightwatt.example.co.uk")
PARCELHOP = ("ParcelHop", "noreply@parcelhop.example.com")
TILLPOINT = ("Tillpoint", "notifications@tillpoint.example.com")
BCM = ("Bath Ceramic Materials", "sales@bathceramic.example.co.uk")
OPENSTUDIOS = ("Frome Open Studios", "artists@fromeopenstudios.example.org")

ISIG = """\
--\x20
Isobel Hart
Kiln Lane Pottery, Unit 4 Wallbridge Yard, Frome
Studio 01632 960218 | Mobile 07700 900412
"""

RAJSIG = """\
Kind regards,

Raj Mehta FCCA
Mehta & Partners, Chartered Certified Accountants
3 Bath Street, Frome
Tel 01632 960734
"""

STUARTSIG = """\
Cheers,
Stuart

--
Stuart Kemble
KilnCare South West - kiln servicing & repairs
Mob: 07700 900763 (best number, I'm rarely at the desk)
"""

GEOFFSIG = """\
Regards,
Geoffrey Pike
Wallbridge Yard Estates
01632 960455
"""

HATTIESIG = """\
Hattie Lowe
Bath Makers' Fair | stallholder coordinator
07700 900218
"""

# ---------------------------------------------------------------- helpers


def when(stamp: str) -> datetime:
    """Local UK time (GMT, or BST between 30 Mar and 26 Oct 2025) as an aware datetime."""
    naive = datetime.strptime(stamp, "%Y-%m-%d %H:%M")
    bst = datetime(2025, 3, 30, 2, 0) <= naive < datetime(2025, 10, 26, 2, 0)
    return naive.replace(tzinfo=timezone(timedelta(hours=1 if bst else 0)))


def addr(p):
    return Address(display_name=p[0], addr_spec=p[1])


MESSAGES: list[dict] = []


def mail(
    box,
    mid,
    frm,
    to,
    date,
    subject,
    text=None,
    html=None,
    *,
    cc=None,
    enc="7bit",
    html_enc="quoted-printable",
    charset="utf-8",
    reply=None,
    atts=(),
    cal=None,
    save_as=None,
):
    MESSAGES.append(
        dict(
            box=box,
            mid=mid,
            frm=frm,
            to=to,
            date=date,
            subject=subject,
            text=text,
            html=html,
            cc=cc,
            enc=enc,
            html_enc=html_enc,
            charset=charset,
            reply=reply,
            atts=list(atts),
            cal=cal,
            save_as=save_as,
        )
    )


def msgid(m):
    dom = m["frm"][1].split("@", 1)[1]
    return f"<{m['mid']}@{dom}>"


def build(m: dict, ids: dict) -> EmailMessage:
    msg = EmailMessage(policy=policy.default)
    msg["From"] = addr(m["frm"])
    tos = m["to"] if isinstance(m["to"], list) else [m["to"]]
    msg["To"] = [addr(p) for p in tos]
    if m["cc"]:
        ccs = m["cc"] if isinstance(m["cc"], list) else [m["cc"]]
        msg["Cc"] = [addr(p) for p in ccs]
    msg["Subject"] = m["subject"]
    msg["Date"] = format_datetime(when(m["date"]))
    msg["Message-ID"] = msgid(m)
    if m["reply"]:
        parent = ids[m["reply"]]
        msg["In-Reply-To"] = parent
        msg["References"] = parent
    msg["MIME-Version"] = "1.0"
    if m["text"] is not None:
        enc = m["enc"]
        if enc == "7bit" and not m["text"].isascii():
            enc = "quoted-printable"
        msg.set_content(m["text"], charset=m["charset"], cte=enc)
        if m["html"] is not None:
            msg.add_alternative(m["html"], subtype="html", charset="utf-8", cte=m["html_enc"])
    else:
        msg.set_content(m["html"], subtype="html", charset=m["charset"], cte=m["html_enc"])
    if m["cal"] is not None:
        if not msg.is_multipart():
            msg.make_alternative()
        msg.add_alternative(
            m["cal"], subtype="calendar", charset="utf-8", cte="7bit", params={"method": "REQUEST"}
        )
        cal_part = msg.get_payload()[-1]
        cal_part.set_param("method", "REQUEST")
    for name, ctype, data in m["atts"]:
        maintype, subtype = ctype.split("/")
        if maintype == "text":
            msg.add_attachment(data, subtype=subtype, charset="utf-8", cte="quoted-printable", filename=name)
        else:
            msg.add_attachment(data, maintype=maintype, subtype=subtype, filename=name)
    for i, part in enumerate(msg.walk()):
        if part.is_multipart():
            part.set_boundary(f"=_KL_{m['mid']}_{i}")
    return msg


def fake_pdf(title: str) -> bytes:
    return (
        b"%PDF-1.4\n% synthetic placeholder\n1 0 obj << /Title ("
        + title.encode("ascii")
        + b") >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n"
    )


def fake_jpeg() -> bytes:
    return bytes.fromhex("ffd8ffe000104a46494600010100000100010000ffd9")


def unixfrom_date(dt: datetime) -> str:
    return dt.strftime("%a %b ") + f"{dt.day:2d}" + dt.strftime(" %H:%M:%S %Y")


FROM_LINE = re.compile(rb"^(>*From )", re.M)


def write_mbox(path: Path, msgs: list[tuple[dict, EmailMessage]]) -> None:
    out = bytearray()
    for m, msg in msgs:
        raw = msg.as_bytes(policy=policy.default)
        raw = FROM_LINE.sub(rb">\1", raw)  # mboxrd quoting
        if not raw.endswith(b"\n"):
            raw += b"\n"
        out += f"From {m['frm'][1]} {unixfrom_date(when(m['date']))}\n".encode("ascii")
        out += raw + b"\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(bytes(out))


# ================================================================ Archive-2025.mbox
A = "archive"

mail(
    A,
    "a01-yearend",
    RAJ,
    ME,
    "2025-01-06 09:14",
    "Year-end pack - what I need from you",
    f"""\
Hi Isobel,

Happy new year! A reminder that your 2023-24 self-assessment return has to be filed
and paid by 31 January, so I need the following from you by Friday 17 January at
the latest:

  1. Bank statements for the business account, April 2023 to March 2024
  2. The sales spreadsheet (including the market takings)
  3. Receipts for clay, glazes, kiln parts and the van
  4. Your mileage log

Scans are fine. If it's easier, drop the paper copies at the office.

{RAJSIG}""",
)

mail(
    A,
    "a02-yearend-re",
    ME,
    RAJ,
    "2025-01-07 20:41",
    "Re: Year-end pack - what I need from you",
    f"""\
Hi Raj,

Thanks. I'll bring the shoebox of receipts and the printed statements round to
Bath Street on Friday 10th, after the school run. Sales spreadsheet to follow by
email. The mileage log is in a notebook in the van, so that may take a day longer.

Isobel

On Mon, 6 Jan 2025 at 09:14, Raj Mehta <raj@mehta-partners.example.co.uk> wrote:
> Hi Isobel,
>
> Happy new year! A reminder that your 2023-24 self-assessment return has to be filed
> and paid by 31 January, so I need the following from you by Friday 17 January at
> the latest:

{ISIG}""",
)

mail(
    A,
    "a03-wc-order",
    WCS,
    ME,
    "2025-01-09 11:02",
    "Order confirmation WC-20417",
    """\
Westcountry Clay Supplies - Order confirmation

Order:      WC-20417
Account:    KLN-002
Placed by:  Isobel Hart (phone)

  20 x St Thomas Buff Stoneware 12.5kg   @ 14.20   = 284.00
   2 x Grogged Crank 12.5kg              @ 15.80   =  31.60
  Delivery (pallet, Frome)                         =  18.00
                                          Total GBP  333.60

Delivery day: Tuesday 14 January, between 8am and 1pm.
Please make sure someone can sign for the pallet.

Bev Tanner
Westcountry Clay Supplies, Taunton
""",
)

mail(
    A,
    "a04-booking-fern",
    BOOKINGS,
    ME,
    "2025-01-13 22:37",
    "New booking: Wheel Basics (6 weeks)",
    """\
You have a new booking.

Course:    Wheel Basics (6 weeks)
Sessions:  Tuesdays 7pm-9pm, from 4 February 2025
Student:   Fern Adebayo
Email:     fern.adebayo@example.org
Paid:      £165.00 (card)
Places left on this course: 2 of 8

Reply to this email to contact the student.
""",
    enc="base64",
)

mail(
    A,
    "a05-roof-leak",
    GEOFF,
    ME,
    "2025-01-15 08:30",
    "Roof leak, Unit 4",
    f"""\
Dear Isobel,

Thank you for your message and the photographs. It looks as if the felt has
split again along the back edge. I have asked Mark Dyer of Tor Roofing to come
and look at it on Thursday morning; he has a key to the yard gate.

In the meantime please keep anything valuable away from that wall.

{GEOFFSIG}""",
)

mail(
    A,
    "a06-roof-leak-re",
    ME,
    GEOFF,
    "2025-01-16 17:55",
    "Re: Roof leak, Unit 4",
    f"""\
Dear Geoffrey,

Mark came this morning and went up with a ladder. He thinks it's the whole
back section rather than one split, and said he'll send you a proper quote.

It's still dripping over the glaze shelf when it rains hard, so I've moved the
glaze buckets to the front and put a tray under the drip.

Best wishes,
Isobel

{ISIG}""",
    reply="a05-roof-leak",
)

mail(
    A,
    "a07-market",
    LOU,
    ME,
    "2025-01-22 12:10",
    "Frome Sunday Makers Market - 2025 dates",
    """\
Hello makers!

The 2025 dates are in: the market runs on the first Sunday of every month from
March to December, on the Cattle Market car park.

Pitch fee stays at £45 a month (3m x 3m, gazebo not provided).
Set-up from 7:30, trading 10-4, and please be packed down by 5.

Reply to this email with the months you want and I'll send a payment link.

Lou Carver
Frome Sunday Makers Market
""",
)

mail(
    A,
    "a08-dan-van",
    DAN,
    ME,
    "2025-01-27 13:05",
    "van for the Larder job",
    """\
Iz,

Pete says we can borrow his Transit for the Larder delivery as long as it's a
weekday and we fill it up. He needs it back by 3pm. Just tell me the date once
they've confirmed.

Also, the shoebox is still on the kitchen table. Did Raj get the statements?

D x
""",
)

mail(
    A,
    "a09-roof-revised",
    GEOFF,
    ME,
    "2025-02-18 10:20",
    "Roof works - revised quote and dates",
    f"""\
Dear Isobel,

Mark Dyer has revised his quotation. When he measured up properly he found that
the rooflight over your kiln corner means the work cannot be done from ladders,
so scaffolding is needed along the back lane. His revised price is £2,610 plus VAT
(up from £2,340), which the estate will pay as landlord's repairs.

Works are booked to start on Monday 10 March and should take four or five days.
Could you please clear the shelving along the back wall by the Friday before?

{GEOFFSIG}""",
)

mail(
    A,
    "a10-roof-revised-re",
    ME,
    GEOFF,
    "2025-02-19 08:12",
    "Re: Roof works - revised quote and dates",
    f"""\
Dear Geoffrey,

Thank you - that's fine. I'll have the back wall cleared by Friday 7 March and
I'll fire the kiln the week before so it's cold while they're up there.

Best wishes,
Isobel

{ISIG}""",
    reply="a09-roof-revised",
)

PRICE_HTML = """\
<html><body style="font-family:Arial,sans-serif">
<p>Dear customer,</p>
<p>Because of increases in haulage and energy costs we have to revise our prices.
The following prices apply to all orders delivered from <b>1 April 2025</b>:</p>
<table border="1" cellpadding="4" cellspacing="0">
<tr><th>Clay</th><th>Bag</th><th>Price now</th><th>From 1 April</th></tr>
<tr><td>St Thomas Buff Stoneware</td><td>12.5kg</td><td>&pound;14.20</td><td>&pound;16.90</td></tr>
<tr><td>Grogged Crank</td><td>12.5kg</td><td>&pound;15.80</td><td>&pound;18.60</td></tr>
<tr><td>Audrey Porcelain</td><td>12.5kg</td><td>&pound;21.50</td><td>&pound;24.75</td></tr>
<tr><td>Pallet delivery</td><td>per drop</td><td>&pound;18.00</td><td>&pound;24.00</td></tr>
</table>
<p>Orders placed before 31 March at current prices will be honoured.</p>
<p>Thank you for your understanding,<br>Bev Tanner<br>Westcountry Clay Supplies</p>
</body></html>
"""
mail(A, "a11-wc-prices", WCS, ME, "2025-03-03 09:00", "Price changes from 1 April", html=PRICE_HTML)

mail(
    A,
    "a12-dan-clay",
    ME,
    DAN,
    "2025-03-04 21:48",
    "clay",
    """\
Westcountry are putting the buff up to £16.90 a bag from April. That's nearly 20%,
on top of two late pallets since Christmas. I'm going to ask Mendip Clay in
Shepton for a trade price list before I order again.

From now on I'm writing every order down in the green book so I can compare.

x
""",
)

mail(
    A,
    "a13-roof-done",
    ME,
    GEOFF,
    "2025-03-14 16:20",
    "Roof finished",
    f"""\
Dear Geoffrey,

Mark's team finished today and took the scaffolding down this afternoon. The
back of the unit is dry at last, thank you.

There is still a small drip by the front door when the wind is from the south
west. It might be the flashing above the door rather than the roof itself.

Best wishes,
Isobel

{ISIG}""",
)

mail(
    A,
    "a14-roof-done-re",
    GEOFF,
    ME,
    "2025-03-17 09:41",
    "Re: Roof finished",
    f"""\
Dear Isobel,

Good news. Mark will come back on Monday 24 March to reseal the flashing over the
door; there is no charge for that.

{GEOFFSIG}""",
    reply="a13-roof-done",
)

mail(
    A,
    "a15-kiln-booking",
    STUART,
    ME,
    "2025-04-02 18:03",
    "Kiln service booking",
    f"""\
Hi Isobel,

You're booked in for the annual service on Wednesday 14 May, 9am. I'll do the
usual checks (thermocouple, relay, door seal, wiring) and fit the new set of
elements we talked about - £386 for the set of six, plus labour.

Please make sure the kiln is empty and completely cold.

{STUARTSIG}""",
)

MUM_TEXT = """\
Dear Isobel,

I have booked the Grey Heron at Nunney for my birthday lunch, Sunday 27th April at
1 o'clock, a table for eight. I have paid the £40 deposit so don't let Dan argue
about the bill.

Could you bring the big blue jug for the flowers? The café one is too small.

Clara and the children are coming from Bristol. I thought it would be nice if we
walked round the castle afterwards, weather permitting.

Lots of love,
Mum
"""
mail(
    A,
    "a16-mum-lunch",
    MUM,
    ME,
    "2025-04-07 10:15",
    "My birthday lunch",
    MUM_TEXT,
    enc="quoted-printable",
    charset="iso-8859-1",
)

mail(
    A,
    "a17-mum-lunch-re",
    ME,
    MUM,
    "2025-04-07 19:30",
    "Re: My birthday lunch",
    """\
Hi Mum,

Lovely, we'll be there. I'll bring the blue jug and some tulips from the market.

Love,
Isobel x
""",
    reply="a16-mum-lunch",
)

mail(
    A,
    "a18-kiln-moved-re",
    ME,
    STUART,
    "2025-05-08 07:52",
    "Re: Kiln service booking",
    f"""\
Hi Stuart,

No problem at all, I'd rather wait for the proper elements. I'll keep the kiln
empty and let it cool from the Sunday before. Could you also look at the door
catch while you're here? It's started to stick.

Thanks,
Isobel

On Wed, 7 May 2025 at 16:26, Stuart Kemble <stuart@kilncare.example.net> wrote:
> Hi Isobel,
>
> Sorry, bad news - the replacement elements are stuck at the maker in Stuttgart
> and won't reach me before the 14th. I've moved you to Wednesday 28 May, same time
> (9am). Hope that's OK.
>
> Cheers,
> Stuart

{ISIG}""",
    reply="a15-kiln-booking",
)

CLAYDAY_HTML = """\
<html><body>
<p>Hi Isobel,</p>
<p>Thank you so much for agreeing to run the children's clay morning for us. The Town
Council's community grant covers your <b>&pound;300</b> fee. Here's what we've planned:</p>
<ul>
<li>Saturday 17 May, 10am to 12:30, in the Frome Library community room</li>
<li>20 children aged 7 to 11, each with a grown-up</li>
<li>Tables covered and a sink next door; we'll provide aprons</li>
<li>Pieces to be fired at your studio and collected from the library desk two weeks later</li>
</ul>
<p>Could you bring about 25kg of clay and the tools? Parking is behind the building.</p>
<p>Warm wishes,<br>Gwen Ashby<br>Community Learning Librarian, Frome Library</p>
</body></html>
"""
mail(A, "a19-clayday", GWEN, ME, "2025-05-12 14:40", "Children's clay morning - details", html=CLAYDAY_HTML)

mail(
    A,
    "a20-close-wc",
    ME,
    BEV,
    "2025-05-30 16:05",
    "Closing my account (KLN-002)",
    f"""\
Hi Bev,

I'm sorry to say I'll be moving my clay orders to another supplier from June,
so please close account KLN-002 once the last invoice is settled.

It isn't personal - you've always been lovely on the phone - but with the April
price rise the buff is now £16.90 a bag, and the January and March pallets both
arrived days late, which cost me a firing each time. I can't really afford either.

Thank you for the last six years.

Isobel

{ISIG}""",
)

mail(
    A,
    "a21-close-wc-re",
    BEV,
    ME,
    "2025-06-02 09:12",
    "Re: Closing my account (KLN-002)",
    """\
Hi Isobel,

Sorry to lose you, and I'm sorry about the late pallets - we had a driver off
for most of the winter. Your account is at zero, so I've closed it today.
If you ever want porcelain we're still happy to send single bags.

All the best with the pottery,
Bev
""",
    reply="a20-close-wc",
)

mail(
    A,
    "a22-rent-review",
    GEOFF,
    ME,
    "2025-06-02 11:30",
    "Rent review - Unit 4 Wallbridge Yard",
    f"""\
Dear Isobel,

Under clause 5 of your lease the rent for Unit 4 is due for review this summer.
Please find attached the formal notice. The estate proposes that the rent rises
from £725 to £795 per calendar month with effect from 1 August 2025, in line with
the other units in the yard.

Do let me know if you would like to discuss it.

{GEOFFSIG}""",
    atts=[("Rent-review-notice-Unit4-2025.pdf", "application/pdf", fake_pdf("Rent review notice Unit 4"))],
)

mail(
    A,
    "a23-rent-review-re",
    ME,
    GEOFF,
    "2025-06-09 21:10",
    "Re: Rent review - Unit 4 Wallbridge Yard",
    f"""\
Dear Geoffrey,

Thank you for the notice. I'd like to propose £750 a month instead. I lost most of
two weeks' work in March while the roof was done, and two batches of glaze to the
leak before that, and the unit is still the only one in the yard without a
separate water meter.

I hope that seems fair; I've been a good tenant for six years.

Best wishes,
Isobel

{ISIG}""",
    reply="a22-rent-review",
)

mail(
    A,
    "a24-rent-agreed",
    GEOFF,
    ME,
    "2025-06-16 15:02",
    "Re: Re: Rent review - Unit 4 Wallbridge Yard",
    f"""\
Dear Isobel,

I have discussed your letter with the other directors. We can't go as low as
£750, but we are happy to meet you at £760 per calendar month from 1 August 2025,
fixed until the next review in 2028. The memorandum is attached for signature.

{GEOFFSIG}""",
    reply="a23-rent-review-re",
    atts=[("Unit4-rent-memorandum-2025.pdf", "application/pdf", fake_pdf("Rent memorandum Unit 4"))],
)

mail(
    A,
    "a25-mendip-first",
    OWEN,
    ME,
    "2025-06-10 10:45",
    "Welcome to Mendip Clay - first order",
    """\
Hi Isobel,

Great to have you with us. Your trade account number is MCC-0881 and your first
order is confirmed:

  24 x Mendip Buff Stoneware (MB1) 12.5 kg
   2 x Mendip Crank (MC2) 12.5 kg

As it's over 20 bags you get the bulk price and free delivery. Our van does Frome
on Thursdays, so it will be with you on Thursday 12 June in the morning. If you
ever need clay in a hurry, collection from our yard on Townsend Lane in Shepton
Mallet is fine too - just ring ahead.

Owen Price
Mendip Clay Co.
01632 960590
""",
)

mail(
    A,
    "a26-draft-accounts",
    RAJ,
    ME,
    "2025-06-20 12:20",
    "Draft accounts, year to 31 March 2025",
    f"""\
Hi Isobel,

Please find attached the draft accounts for Kiln Lane Pottery for the year ended
31 March 2025. The headline figures:

  Turnover:    £48,920
  Net profit:  £14,306

Turnover is up about 11% on last year, mainly the Larder order and the classes.
Can you check the mileage figure on page 4? It looks low to me.

{RAJSIG}""",
    enc="quoted-printable",
    atts=[
        (
            "KLP-Accounts-YE-2025-03-31-draft-v2.pdf",
            "application/pdf",
            fake_pdf("Kiln Lane Pottery accounts draft v2"),
        )
    ],
)

mail(
    A,
    "a27-draft-accounts-re",
    ME,
    RAJ,
    "2025-06-23 08:40",
    "Re: Draft accounts, year to 31 March 2025",
    f"""\
Hi Raj,

You're right, I'd left out the trips to the Bath fair and the Lyon parcel run.
Corrected mileage log attached. Otherwise it all looks fine to me.

Isobel

{ISIG}""",
    reply="a26-draft-accounts",
    atts=[
        (
            "mileage-2024-25-corrected.csv",
            "text/csv",
            "date,trip,miles\n2024-11-29,Bath fair load-in,26\n2024-12-01,Bath fair collect,26\n",
        )
    ],
)

mail(
    A,
    "a28-clara-christening",
    CLARA,
    ME,
    "2025-07-07 20:15",
    "A bowl for Rosa?",
    """\
Hi Iz,

Would you make a christening bowl for Rosa? Nothing huge, a bowl she can use for
her porridge when she's bigger, with her name and the date on the bottom.

The christening is Sunday 7 September at 11, at St Mary's in Nunney, then back to
Mum's. You and Dan are down as godparents, obviously!

Love C x
""",
)

mail(
    A,
    "a29-clara-re",
    ME,
    CLARA,
    "2025-07-08 07:30",
    "Re: A bowl for Rosa?",
    f"""\
Of course! I'll do it in the sea-glass blue with a white rim, and I'll stamp
"Rosa 7.9.25" underneath. It'll be ready well before the day.

Honoured to be godmother. x

> Would you make a christening bowl for Rosa?

{ISIG}""",
    reply="a28-clara-christening",
)

mail(
    A,
    "a30-ollie-holiday",
    OLLIE,
    ME,
    "2025-07-15 12:02",
    "Time off in August",
    """\
Hi Isobel,

Would it be OK if I took 4 to 15 August off? We've got a family trip to Galway.
I'll be back for the Saturday after, and I'm happy to do extra days in late
August to help with the wedding vases.

Thanks,
Ollie
""",
)

mail(
    A,
    "a31-poa",
    RAJ,
    ME,
    "2025-07-24 09:05",
    "Reminder: second payment on account due 31 July",
    f"""\
Hi Isobel,

Just a reminder that your second payment on account for 2024-25, £1,706.30, is due
by 31 July. Pay it the same way as in January, quoting your UTR followed by K as
the reference.

{RAJSIG}""",
)

CLASS_TEXT = """\
Autumn term at Kiln Lane Pottery

Hello everyone,

Booking for the autumn term opens on Monday 18 August. Courses start in the week
of 15 September:

- Wheel Basics (6 weeks): Tuesdays 7pm-9pm, from 16 September
- Improvers (6 weeks): Thursdays 7pm-9pm, from 18 September
- Saturday taster: 27 September, 10am-1pm

The six-week courses will cost £180 from this term (they were £165). I've held
the price for two years, but clay has gone up by nearly a fifth and the studio's
electricity rate went up again in April, and every piece you make goes through
two firings.

Tasters stay at £45.

See you at the wheel,
Isobel
"""
CLASS_HTML = """\
<html><body>
<h2>Autumn term at Kiln Lane Pottery</h2>
<p>Hello everyone,</p>
<p>Booking for the autumn term opens on <b>Monday 18 August</b>. Courses start in the week
of 15 September:</p>
<ul>
<li>Wheel Basics (6 weeks): Tuesdays 7pm-9pm, from 16 September</li>
<li>Improvers (6 weeks): Thursdays 7pm-9pm, from 18 September</li>
<li>Saturday taster: 27 September, 10am-1pm</li>
</ul>
<p>The six-week courses will cost &pound;180 from this term (they were &pound;165). I&#8217;ve held
the price for two years, but clay has gone up by nearly a fifth and the studio&#8217;s
electricity rate went up again in April, and every piece you make goes through
two firings.</p>
<p>Tasters stay at &pound;45.</p>
<p>See you at the wheel,<br>Isobel</p>
</body></html>
"""
mail(
    A,
    "a32-autumn-term",
    CLASSES,
    CLASSES,
    "2025-08-11 19:00",
    "Autumn term: dates and prices",
    CLASS_TEXT,
    CLASS_HTML,
    enc="quoted-printable",
)

mail(
    A,
    "a33-fwd-cottage",
    DAN,
    ME,
    "2025-08-18 18:22",
    "Fwd: Booking confirmed - Gull's Rest, St Ives",
    """\
Booked! Forwarding so you have it too. Mum says she'll water the tomatoes.

D

---------- Forwarded message ---------
From: Porthmeor Cottages <hello@porthmeorcottages.example.co.uk>
Date: Mon, 18 Aug 2025 at 17:58
Subject: Booking confirmed - Gull's Rest, St Ives
To: Dan Whitlock <dan.whitlock@example.net>

Dear Dan,

Thank you for your booking. Your stay at Gull's Rest is confirmed:

Arrive: Saturday 13 September, check-in from 4pm
Depart: Saturday 20 September, by 10am
Guests: 2 adults

The key is in the key safe beside the blue door at the side of the cottage; we
will text you the code on the morning of arrival. Parking is one space in the
residents' bay on Back Road West.

The balance of £640 was taken with the booking.

Porthmeor Cottages, St Ives
""",
)

mail(
    A,
    "a34-fair-confirmed",
    HATTIE,
    ME,
    "2025-09-01 10:00",
    "Bath Makers' Fair 2025 - your stall is confirmed",
    f"""\
Dear Isobel,

Great news: your application for the Bath Makers' Fair has been accepted.

Dates: Friday 28 to Sunday 30 November 2025
Venue: Green Park Station, Bath
Your pitch: B12 (3m x 2m, with one power socket)
Stall fee: £240, received with thanks

I'll send load-in details and an invitation to the stallholder briefing nearer the
time.

Best wishes,
{HATTIESIG}""",
)

mail(
    A,
    "a35-fair-re",
    ME,
    HATTIE,
    "2025-09-02 08:15",
    "Re: Bath Makers' Fair 2025 - your stall is confirmed",
    f"""\
Dear Hattie,

Wonderful, thank you! One question: can I bring my own lighting for the shelves,
or is the one socket shared with the next pitch?

Isobel

{ISIG}""",
    reply="a34-fair-confirmed",
)

mail(
    A,
    "a36-mendip-delivery",
    OWEN,
    ME,
    "2025-09-22 16:30",
    "Delivery day change from October",
    """\
Hi Isobel,

A quick note that from 1 October our Frome van run moves from Thursday to
Wednesday. Orders need to be in by 2pm on the Monday before.

Prices are unchanged until the new year.

Owen Price
Mendip Clay Co.
01632 960590
""",
)

mail(
    A,
    "a37-pitch-moved",
    HATTIE,
    ME,
    "2025-10-20 13:45",
    "Change of pitch: A7",
    f"""\
Dear Isobel,

I'm afraid we've had to move you. The station's electrician has told us the
B-row sockets are being rewired in November and can't be used for the fair, so
all the B-row stalls that asked for power are moving.

Your new pitch is A7, just inside the main entrance on the left. Same size, and
it has its own socket, so you can bring your shelf lights.

Sorry for the shuffle!
{HATTIESIG}""",
)

mail(
    A,
    "a38-tariq-site",
    TARIQ,
    ME,
    "2025-10-27 11:11",
    "Website - Christmas bits",
    """\
Hey Iz,

Shop's updated with the new photos. I've set the last order date for Christmas
delivery to Friday 12 December and switched on the "collect from studio" option
like you asked. Shout if anything looks off.

T
""",
)

mail(
    A,
    "a39-fair-logistics",
    ME,
    DAN,
    "2025-11-03 21:02",
    "fair weekend plan",
    """\
Plan for the fair:

Thu 27 Nov evening: wrap and box everything, load Pete's Transit
Fri 28 Nov: leave 6:30, unload 7-9, I do Friday on my own
Sat 29 Nov: Ollie helps all day, you bring lunch?
Sun 30 Nov: you and me, pack down from 5

From what Hattie says the fair gets busiest on the Saturday, so I'll bring
double the mugs that day.

Ix
""",
)

mail(
    A,
    "a40-ollie-rota",
    ME,
    OLLIE,
    "2025-11-12 09:20",
    "Fair Saturday and December",
    """\
Hi Ollie,

Thanks for offering. Saturday 29 November at the fair: please be at Green Park
Station for 9:15, I'll have a coffee for you. I'll pay the usual day rate plus
your train fare.

In December the studio will be open Saturdays until the 20th, then closed until
3 January.

Isobel
""",
)

# ================================================================ Clients.mbox/mbox
C = "clients"

mail(
    C,
    "c01-larder-enquiry",
    AMARA,
    ME,
    "2025-02-03 15:40",
    "Tableware for The Larder",
    """\
Hi Isobel,

I'm the general manager at The Larder on Walcot Street in Bath. We met at the
makers' fair in November and Nico, our chef, has been talking about your plates
ever since.

We reopen after our refit on 20 March and would like to order:

- 60 dinner plates, 27cm
- 40 pasta bowls

all in your "Fennel" glaze, the soft sage green. Could you let me know a price and
whether 20 March is possible?

Many thanks,
Amara Osei
General Manager, The Larder
01632 960877
""",
)

QUOTE_TEXT = f"""\
Dear Amara,

Thank you, I'd love to do this. Here is my quote:

  Dinner plate 27cm, Fennel   60 x £28.00   £1,680.00
  Pasta bowl, Fennel          40 x £24.00     £960.00
  Total                                    £2,640.00

Delivery to the restaurant is included. I ask for a 50% deposit to book the
kiln time, and the balance on delivery.

20 March is possible if I have the deposit by 14 February.

Best wishes,
Isobel

{ISIG}"""
QUOTE_HTML = """\
<html><body>
<p>Dear Amara,</p>
<p>Thank you, I&#8217;d love to do this. Here is my quote:</p>
<table border="1" cellpadding="4" cellspacing="0">
<tr><th>Item</th><th>Qty</th><th>Each</th><th>Line total</th></tr>
<tr><td>Dinner plate 27cm, Fennel</td><td>60</td><td>&pound;28.00</td><td>&pound;1,680.00</td></tr>
<tr><td>Pasta bowl, Fennel</td><td>40</td><td>&pound;24.00</td><td>&pound;960.00</td></tr>
<tr><td><b>Total</b></td><td></td><td></td><td><b>&pound;2,640.00</b></td></tr>
</table>
<p>Delivery to the restaurant is included. I ask for a 50% deposit to book the
kiln time, and the balance on delivery.</p>
<p>20 March is possible if I have the deposit by 14 February.</p>
<p>Best wishes,<br>Isobel</p>
<p>-- <br>Isobel Hart<br>Kiln Lane Pottery, Unit 4 Wallbridge Yard, Frome<br>Studio 01632 960218 | Mobile 07700 900412</p>
</body></html>
"""
mail(
    C,
    "c02-larder-quote",
    ME,
    AMARA,
    "2025-02-05 09:30",
    "Re: Tableware for The Larder",
    QUOTE_TEXT,
    QUOTE_HTML,
    enc="quoted-printable",
    reply="c01-larder-enquiry",
)

mail(
    C,
    "c03-larder-change",
    AMARA,
    ME,
    "2025-02-12 11:25",
    "Re: Re: Tableware for The Larder",
    """\
Hi Isobel,

Two changes, I'm afraid, one good and one less so:

1. We're adding a covered terrace, so please make it 72 dinner plates instead of
   60. The bowls stay at 40.
2. The new kitchen extraction has failed its inspection and the contractor can't
   come back until March, so our reopening has been pushed back to Thursday 3 April.
   There's no rush for the 20th any more.

I've paid a deposit of £1,488 today, half of the new total. Nico says hello.

Amara
""",
    reply="c02-larder-quote",
)

mail(
    C,
    "c04-larder-delivery",
    ME,
    AMARA,
    "2025-03-26 17:50",
    "Delivery of your plates and bowls",
    f"""\
Dear Amara,

Everything is out of the glaze firing and looking lovely. My partner Dan and I will
bring it all over on Tuesday 1 April at 10am, two days before you open, in a
borrowed van - could someone meet us at the back door on Walcot Street?

Balance due on delivery: £1,488.

Best wishes,
Isobel

{ISIG}""",
)

mail(
    C,
    "c05-larder-thanks",
    AMARA,
    ME,
    "2025-04-10 10:05",
    "Thank you!",
    """\
Isobel,

The plates have been a hit - three customers have asked where they're from, and
I've pointed them all to you. Only one pasta bowl had a small chip on the foot,
which we can live with.

Could we order 6 espresso cups in the Fennel glaze for the bar, to match?

Amara
""",
)

ZOE_TEXT = """\
Hi Isobel,

My fiancé Marcus and I saw your bud vases at the Frome market and fell in love with
them. We're getting married on Saturday 23 August at Rookery Barn, just outside
Frome, and we'd love one at every place setting as a favour for our guests.

We're thinking about 90 little bud vases in a sea-glass blue, maybe with our
initials stamped on them – "Z & M"? Is that something you could do, and roughly
how much would it cost?

Thank you so much,
Zoë
"""
mail(
    C, "c06-zoe-enquiry", ZOE, ME, "2025-04-14 20:55", "Wedding favours – bud vases?", ZOE_TEXT, enc="base64"
)

mail(
    C,
    "c07-zoe-quote",
    ME,
    ZOE,
    "2025-04-16 08:10",
    "Re: Wedding favours – bud vases?",
    f"""\
Dear Zoë,

Congratulations! Yes, I can do that. The small bud vase is £9.50 each including
the stamp, so 90 would be £855. I'd need final numbers by the end of July, and
they would be ready to collect from the studio the week before the wedding.

Best wishes,
Isobel

{ISIG}""",
    enc="quoted-printable",
    reply="c06-zoe-enquiry",
)

mail(
    C,
    "c08-zoe-final",
    ZOE,
    ME,
    "2025-07-29 22:14",
    "Re: Wedding favours – final numbers for Zoë & Marcus",
    """\
Hi Isobel,

Final numbers are in: we need 96 vases after all (Marcus's cousins all said yes!),
so I've paid the new total of £912 by bank transfer.

Would it be OK for my sister to collect them from the studio on Saturday 16 August
in the morning?

Zoë
""",
    enc="quoted-printable",
    reply="c07-zoe-quote",
)

ELODIE_TEXT = """\
Dear Isobel,

I am the owner of Café Brûlé, a small coffee shop in the Croix-Rousse in Lyon. A
customer brought one of your bowls back from Frome and now everybody wants one!

I would like to order 30 of your large café au lait bowls in the Fennel green.
I can pay €32 par bol, so €960 for the 30 – is that OK for you? Please tell me
the cost of the shipping to Lyon and I will pay everything by bank transfer.

Merci beaucoup et à bientôt,
Élodie Marchand
Café Brûlé, Lyon
"""
mail(
    C,
    "c09-elodie-order",
    ELODIE,
    ME,
    "2025-05-19 07:42",
    "Commande – bols pour Café Brûlé",
    ELODIE_TEXT,
    enc="quoted-printable",
    charset="windows-1252",
)

mail(
    C,
    "c10-elodie-re",
    ME,
    ELODIE,
    "2025-05-21 12:30",
    "Re: Commande – bols pour Café Brûlé",
    f"""\
Dear Élodie,

Merci! I'd be delighted. €32 a bowl is fine. Shipping to Lyon by courier will be
£68, which I'll put on the invoice as €80, so €1,040 in total. I can send them on
Friday 6 June, well packed, with the customs paperwork.

Best wishes,
Isobel

{ISIG}""",
    enc="quoted-printable",
    reply="c09-elodie-order",
)

mail(
    C,
    "c11-elodie-reorder",
    ELODIE,
    ME,
    "2025-10-06 08:03",
    "Christmas – encore des bols ?",
    """\
Dear Isobel,

The bowls have been a great success. For Christmas I would like 20 more, and
maybe 12 of the espresso cups you showed on Instagram. Can you send before
5 December?

Bises,
Élodie
""",
    enc="quoted-printable",
)

# ================================================================ saved/*.eml
S = "saved"

mail(
    S,
    "s01-taxreturn",
    SOPHIE,
    ME,
    "2025-01-28 15:20",
    "Your tax return is ready to sign",
    """\
Dear Isobel,

Raj has finished your 2023-24 self-assessment return and the draft is attached for
you to check. Your tax and Class 4 National Insurance for the year come to
£3,412.60, which must be paid by Friday 31 January.

If everything looks right, please reply “approved” and we’ll file it the same day.

Kind regards,
Sophie Lund
Practice Administrator, Mehta & Partners
""",
    enc="quoted-printable",
    cc=RAJ,
    save_as="2025-01-28 Tax return ready to sign",
    atts=[("Hart-I-SA100-2023-24-draft.pdf", "application/pdf", fake_pdf("SA100 draft"))],
)

ROOF_HTML = """\
<html><body>
<p>Dear Mr Pike,</p>
<p>Further to my visit on 16 January, please find below my quotation for works to the
flat roof over <b>Unit 4, Wallbridge Yard, Frome</b>.</p>
<ul>
<li>Strip existing felt from the rear section (approx. 38 m&sup2;)</li>
<li>Replace two rotten deck boards by the rear parapet</li>
<li>Lay new torch-on felt system with a mineral cap sheet</li>
<li>New lead flashing to the rooflight upstand</li>
<li>Remove all waste from site</li>
</ul>
<p><b>Price: &pound;2,340.00 plus VAT</b>, working from ladders. Valid for 60 days.</p>
<p>Yours sincerely,<br>Mark Dyer<br>Tor Roofing<br>01632 960312</p>
</body></html>
"""
mail(
    S,
    "s02-roofquote",
    MARK,
    GEOFF,
    "2025-02-04 17:10",
    "Roof quote - Unit 4 Wallbridge Yard",
    html=ROOF_HTML,
    cc=ME,
    save_as="2025-02-04 Roof quote",
)

PAY_HTML = """\
<html><body style="font-family:Helvetica,Arial,sans-serif">
<h3>You&#8217;ve received a payment</h3>
<p>Amount: <b>&pound;1,488.00</b></p>
<p>From: THE LARDER LTD</p>
<p>Reference: DEPOSIT PLATES BOWLS</p>
<p>Date: 12 February 2025</p>
<p>The money is in your Tillpoint balance and will be paid out to your bank account on the next working day.</p>
</body></html>
"""
mail(
    S,
    "s03-payment",
    TILLPOINT,
    ME,
    "2025-02-12 11:31",
    "You’ve received £1,488.00",
    html=PAY_HTML,
    html_enc="base64",
    save_as="2025-02-12 Payment received",
)

mail(
    S,
    "s04-ollie",
    OLLIE,
    ME,
    "2025-03-06 18:40",
    "Saturdays",
    """\
Hi Isobel,

Thanks for the chat yesterday. Just confirming I'd love to take the Saturday
studio assistant job: 10am to 4pm, starting this Saturday 8 March, at £13 an
hour. I'll bring my own apron!

Ollie Brennan
07700 900534
""",
    save_as="2025-03-06 Saturdays with Ollie",
)

INS_TEXT = """\
Your Makers' Liability policy renewal

Dear Ms Hart,

Your policy CCV-553-2190 for Kiln Lane Pottery renews on 1 April 2025.

Public liability cover: £5,000,000
Products liability cover: £5,000,000
Tools and stock at the studio: £8,000
Annual premium: £214.80 (including Insurance Premium Tax)

You pay by annual card payment, so we will take the premium on 1 April unless
you tell us otherwise. Nothing else has changed since last year.

Craftcover Insurance
"""
INS_HTML = """\
<html><body>
<h2>Your Makers&#8217; Liability policy renewal</h2>
<p>Dear Ms Hart,</p>
<p>Your policy <b>CCV-553-2190</b> for Kiln Lane Pottery renews on 1 April 2025.</p>
<p>Public liability cover: &pound;5,000,000<br>
Products liability cover: &pound;5,000,000<br>
Tools and stock at the studio: &pound;8,000<br>
Annual premium: &pound;214.80 (including Insurance Premium Tax)</p>
<p>You pay by annual card payment, so we will take the premium on 1 April unless
you tell us otherwise. Nothing else has changed since last year.</p>
<p>Craftcover Insurance</p>
</body></html>
"""
mail(
    S,
    "s05-insurance",
    CRAFTCOVER,
    ME,
    "2025-03-20 07:00",
    "Your policy renewal - CCV-553-2190",
    INS_TEXT,
    INS_HTML,
    enc="quoted-printable",
    save_as="2025-03-20 Insurance renewal",
)

ELEC_TEXT = """\
Dear Isobel Hart,

Your fixed business tariff ends on 31 March. From 1 April 2025 your supply at
Unit 4 Wallbridge Yard moves to our Business Flex tariff:

Unit rate: 27.9p per kWh (was 24.6p)
Standing charge: 61.2p per day (was 55.0p)

Your Direct Debit will change to £142 a month from April.

Brightwatt Business Energy
"""
mail(
    S,
    "s06-electric",
    BRIGHTWATT,
    ME,
    "2025-03-10 06:30",
    "Your new tariff from 1 April",
    ELEC_TEXT,
    enc="quoted-printable",
    save_as="2025-03-10 Electricity tariff",
)

MENDIP_HTML = """\
<html><body style="font-family:Georgia,serif">
<p>Hi Isobel,</p>
<p>Lovely to talk on the phone. As promised, here are our trade prices, valid to 31 December 2025:</p>
<table border="1" cellpadding="5" cellspacing="0">
<thead><tr><th>Clay</th><th>Code</th><th>Bag</th><th>Per bag</th><th>20+ bags</th></tr></thead>
<tbody>
<tr><td>Mendip Buff Stoneware</td><td>MB1</td><td>12.5 kg</td><td>&pound;15.40</td><td>&pound;14.60</td></tr>
<tr><td>Mendip Crank</td><td>MC2</td><td>12.5 kg</td><td>&pound;16.80</td><td>&pound;15.95</td></tr>
<tr><td>Mendip White Earthenware</td><td>MW3</td><td>12.5 kg</td><td>&pound;13.90</td><td>&pound;13.20</td></tr>
<tr><td>Porcelain (imported)</td><td>PX5</td><td>10 kg</td><td>&pound;23.50</td><td>&pound;22.30</td></tr>
</tbody>
</table>
<p>Delivery is free on orders of 20 bags or more, otherwise &pound;15 a drop.</p>
<p>Best,<br>Owen Price<br>Mendip Clay Co., Shepton Mallet<br>01632 960590</p>
</body></html>
"""
mail(
    S,
    "s07-mendip-prices",
    OWEN,
    ME,
    "2025-04-22 13:15",
    "Mendip Clay trade prices",
    html=MENDIP_HTML,
    save_as="2025-04-22 Mendip Clay trade prices",
)

mail(
    S,
    "s08-kiln-invoice",
    STUART,
    ME,
    "2025-05-28 17:45",
    "Invoice 2291 - kiln service",
    f"""\
Hi Isobel,

Thanks for the coffee this morning. Invoice attached for today's visit:

  Service visit 28/05/2025            £ 55.00
  Elements, set of six                £386.00
  Door catch, replaced                £  6.00
  Labour (2.5 hrs)                    £ 80.00
  Subtotal                            £527.00

The kiln tested fine afterwards. Run the first firing slowly to settle the new
elements.

{STUARTSIG}""",
    atts=[("KilnCare-invoice-2291.pdf", "application/pdf", fake_pdf("Invoice 2291"))],
    save_as="2025-05-28 KilnCare invoice 2291",
)

mail(
    S,
    "s09-parcelhop",
    PARCELHOP,
    ME,
    "2025-06-04 14:02",
    "Your shipment is booked",
    """\
Your ParcelHop shipment is booked.

Collection: Friday 6 June 2025, 9am-5pm
From: Kiln Lane Pottery, Unit 4 Wallbridge Yard, Frome
To: Café Brûlé, Lyon, France
Parcels: 2 (18.4 kg total)
Service: Europe Road Economy
Tracking number: PH88421907GB
Price paid: £68.00

Print the labels and the commercial invoice (3 copies) and attach them to the
parcels before the driver arrives.
""",
    enc="base64",
    save_as="2025-06-04 Shipment to Lyon booked",
)

mail(
    S,
    "s10-cardfees",
    TILLPOINT,
    ME,
    "2025-06-30 08:00",
    "Changes to your card fees",
    """\
Hello Isobel,

From 1 August 2025 the fee for in-person card payments on your Tillpoint reader
goes from 1.69% to 1.75% per transaction. Online payments stay at 2.5%.

The Tillpoint team
""",
    save_as="2025-06-30 Card reader fees",
)

mail(
    S,
    "s11-glaze-order",
    BCM,
    ME,
    "2025-02-26 10:12",
    "Your order 5512",
    """\
Dear Ms Hart,

Thank you for your order, which was sent today by Royal Mail tracked.

  Tin oxide 1kg                    £38.50
  Cobalt carbonate 500g            £44.00
  Chrome oxide 250g                £ 9.80
  Postage                          £ 6.95
  Total                            £99.25

Remember to wear a mask when weighing out the cobalt.

Bath Ceramic Materials
""",
    enc="8bit",
    charset="windows-1252",
    save_as="2025-02-26 Glaze materials order",
)

mail(
    S,
    "s12-clara-thanks",
    CLARA,
    ME,
    "2025-09-08 21:30",
    "Rosa's bowl",
    """\
Iz,

Thank you for the bowl, it was the star of the day. Mum cried when she saw the
name underneath. Photo attached of Rosa "helping" with it at Mum's afterwards.

C x
""",
    atts=[("IMG_4471.jpg", "image/jpeg", fake_jpeg())],
    save_as="2025-09-08 Rosa's bowl",
)

OS_TEXT = """\
Dear Isobel,

Your listing for Frome Open Studios 2025 is confirmed.

Venue number: 23
Venue: Kiln Lane Pottery, Unit 4 Wallbridge Yard
Open: 4 to 12 October, 11am-5pm (closed Monday 6th and Tuesday 7th)

Your entry will appear on page 14 of the printed guide. Please put the yellow
venue sign up at the yard gate from 1 October.

Frome Open Studios
"""
OS_HTML = """\
<html><body>
<p>Dear Isobel,</p>
<p>Your listing for Frome Open Studios 2025 is confirmed.</p>
<p><b>Venue number:</b> 23<br>
<b>Venue:</b> Kiln Lane Pottery, Unit 4 Wallbridge Yard<br>
<b>Open:</b> 4 to 12 October, 11am-5pm (closed Monday 6th and Tuesday 7th)</p>
<p>Your entry will appear on page 14 of the printed guide. Please put the yellow
venue sign up at the yard gate from 1 October.</p>
<p>Frome Open Studios</p>
</body></html>
"""
mail(
    S,
    "s13-openstudios",
    OPENSTUDIOS,
    ME,
    "2025-09-09 12:00",
    "Listing confirmed - venue 23",
    OS_TEXT,
    OS_HTML,
    save_as="2025-09-09 Open Studios listing",
)

mail(
    S,
    "s14-fern-thursdays",
    FERN,
    ME,
    "2025-09-15 08:05",
    "Tuesdays clash",
    """\
Hi Isobel,

My new job has a late shift on Tuesdays, so could I move from Wheel Basics to the
Thursday Improvers group this term? I'm happy to pay any difference.

Thanks,
Fern
""",
    save_as="2025-09-15 Switching to Thursdays",
)

mail(
    S,
    "s15-kiln-fault",
    STUART,
    ME,
    "2025-09-29 19:20",
    "Re: kiln showing Err-04",
    f"""\
Hi Isobel,

Err-04 on that controller means the thermocouple reading has dropped out. It's
usually the thermocouple itself after a few hundred firings. I'll bring one over
on Thursday 2 October around 8; don't fire until then.

> It got to about 600 degrees and then stopped with Err-04 on the display.

{STUARTSIG}""",
    save_as="2025-09-29 Kiln fault code",
)

mail(
    S,
    "s16-photos",
    TARIQ,
    ME,
    "2025-10-16 21:45",
    "Photos from Tuesday",
    """\
Iz,

Here are the selects from Tuesday's shoot (47 photos, web size and full size),
plus my invoice. I knocked it down to £150 because you fed me.

T
""",
    atts=[
        ("KilnLane-autumn-shoot-selects.zip", "application/zip", b"PK\x05\x06" + b"\x00" * 18),
        ("Invoice-TA-2025-031.pdf", "application/pdf", fake_pdf("Invoice TA-2025-031")),
    ],
    save_as="2025-10-16 Photos from the shoot",
)

BRIEF_TEXT = """\
Hattie Lowe has invited you to an event.

Bath Makers' Fair - stallholder briefing
Where: Green Park Station, the Platform Room (upstairs)

Please accept the attached invitation so I know numbers for tea and cake. We'll go
through security, card machines and the load-in rota.

Invitation from the Bath Makers' Fair calendar
"""
BRIEF_ICS = """\
BEGIN:VCALENDAR
PRODID:-//Bath Makers Fair//Stallholders//EN
VERSION:2.0
METHOD:REQUEST
BEGIN:VTIMEZONE
TZID:Europe/London
BEGIN:STANDARD
DTSTART:19701025T020000
TZOFFSETFROM:+0100
TZOFFSETTO:+0000
RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU
END:STANDARD
BEGIN:DAYLIGHT
DTSTART:19700329T010000
TZOFFSETFROM:+0000
TZOFFSETTO:+0100
RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU
END:DAYLIGHT
END:VTIMEZONE
BEGIN:VEVENT
UID:briefing-2025@bathmakersfair.example.org
DTSTAMP:20251030T101500Z
DTSTART;TZID=Europe/London:20251113T183000
DTEND;TZID=Europe/London:20251113T200000
SUMMARY:Bath Makers' Fair - stallholder briefing
LOCATION:Green Park Station\\, Platform Room (upstairs)\\, Bath
ORGANIZER;CN=Hattie Lowe:mailto:hattie@bathmakersfair.example.org
ATTENDEE;CN=Isobel Hart;RSVP=TRUE:mailto:isobel@kilnlane.example.co.uk
END:VEVENT
END:VCALENDAR
"""
mail(
    S,
    "s17-briefing",
    HATTIE,
    ME,
    "2025-10-30 10:15",
    "Invitation: Bath Makers' Fair - stallholder briefing",
    BRIEF_TEXT,
    cal=BRIEF_ICS,
    save_as="2025-10-30 Invitation stallholder briefing",
)

LOADIN_HTML = """\
<html><body>
<p>Dear stallholders,</p>
<p>Here is everything you need for setting up on <b>Friday 28 November</b>:</p>
<ul>
<li>Load-in is 7:00 to 9:00am only. Doors open to the public at 10.</li>
<li>Vehicles come in through the Station car park entrance on James Street West and stop at the goods bay behind the station.</li>
<li>Unload, then move your vehicle to the main car park within 20 minutes; display the van pass on the dashboard.</li>
<li>Trolleys are available at the goods bay; please return them.</li>
<li>Pack-down on Sunday starts at 5pm, not before.</li>
</ul>
<p>See you at the briefing,<br>Hattie</p>
</body></html>
"""
mail(
    S,
    "s18-loadin",
    HATTIE,
    ME,
    "2025-11-04 09:30",
    "Load-in details for the fair",
    html=LOADIN_HTML,
    save_as="2025-11-04 Load-in details",
)

mail(
    S,
    "s19-engagement",
    RAJ,
    ME,
    "2025-11-10 10:40",
    "Engagement letter for 2025-26",
    f"""\
Hi Isobel,

Our new engagement letter is attached. The fee for the accounts and your tax
return goes from £780 to £840 plus VAT from the 2025-26 year, the first rise
since 2022. Please sign and return it when you can.

{RAJSIG}""",
    enc="quoted-printable",
    atts=[("Engagement-letter-Hart-2025-26.pdf", "application/pdf", fake_pdf("Engagement letter"))],
    save_as="2025-11-10 Engagement letter 2025-26",
)

mail(
    S,
    "s20-library-thanks",
    GWEN,
    ME,
    "2025-05-19 16:10",
    "Thank you from Frome Library",
    """\
Dear Isobel,

Thank you for Saturday - 22 children came in the end (two brothers turned up
on the day) and the feedback forms are glowing. The parents are already asking
whether we can do it again in the October half-term.

Warm wishes,
Gwen
""",
    save_as="2025-05-19 Thank you from the library",
)


# ================================================================ write


def main() -> None:
    ids = {m["mid"]: msgid(m) for m in MESSAGES}
    built = [(m, build(m, ids)) for m in MESSAGES]
    if DOCS.exists():
        shutil.rmtree(DOCS)
    DOCS.mkdir()

    def by_date(box):
        return sorted([b for b in built if b[0]["box"] == box], key=lambda b: when(b[0]["date"]))

    write_mbox(DOCS / "Archive-2025.mbox", by_date(A))
    write_mbox(DOCS / "Clients.mbox" / "mbox", by_date(C))
    (DOCS / "saved").mkdir()
    for m, msg in by_date(S):
        (DOCS / "saved" / f"{m['save_as']}.eml").write_bytes(msg.as_bytes(policy=policy.default))
    counts = {box: sum(1 for m in MESSAGES if m["box"] == box) for box in (A, C, S)}
    print(f"wrote {len(MESSAGES)} messages: {counts}")


if __name__ == "__main__":
    main()
