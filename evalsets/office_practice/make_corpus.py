#!/usr/bin/env python3
"""Write docs/: the shared drive of Hollin & Reed Landscapes Ltd, a fictional 13-person landscape
design-and-build firm in Stroud.

Needs python-docx, python-pptx and openpyxl, and LibreOffice (`soffice`) for the files it converts:

    python3 -m venv /tmp/officegen
    /tmp/officegen/bin/pip install python-docx python-pptx openpyxl
    apt-get install -y --no-install-recommends libreoffice-writer-nogui \
        libreoffice-calc-nogui libreoffice-impress-nogui
    /tmp/officegen/bin/python evalsets/office_practice/make_corpus.py

LibreOffice makes four files from ones this script writes first: the lone working procedure as PDF,
the 2018 vehicle policy as a legacy Word .doc, the van register as a legacy Excel .xls and the petty
cash book as .ods. It also recalculates the two workbooks that carry formulas (the budget and the
leave tracker) by a round trip through `soffice --convert-to xlsx`, so that they hold cached values
as a real Excel file does. All dates inside the documents are fixed; the output is the same content
on every run, but not byte-identical (zip timestamps, LibreOffice metadata).
"""

from __future__ import annotations

import datetime as dt
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from docx import Document
from docx.enum.text import WD_ALIGN_PARAGRAPH
from docx.shared import Mm, Pt
from openpyxl import Workbook
from openpyxl.styles import Alignment, Font, PatternFill
from pptx import Presentation
from pptx.util import Inches
from pptx.util import Pt as PPt

HERE = Path(__file__).resolve().parent
DOCS = HERE / "docs"
FIRM = "Hollin & Reed Landscapes Ltd"
ADDRESS = (
    "Unit 3, Bowbridge Works, London Road, Stroud GL5 2AZ · 01632 960100 · office@hollinreed.example.co.uk"
)

GBP0 = "£#,##0;-£#,##0"
GBP2 = "£#,##0.00"
PCT0 = "0%"
PCT1 = "0.0%"
DATE = "dd/mm/yyyy"


def d(s: str) -> dt.datetime:
    return dt.datetime.strptime(s, "%d/%m/%Y")


# --------------------------------------------------------------------------------------------- Word


def new_doc(title: str, author: str, when: str) -> Document:
    doc = Document()
    cp = doc.core_properties
    cp.title = title
    cp.author = author
    cp.last_modified_by = author
    cp.created = d(when)
    cp.modified = d(when)
    cp.comments = ""
    sec = doc.sections[0]
    sec.page_width, sec.page_height = Mm(210), Mm(297)
    sec.left_margin = sec.right_margin = Mm(25)
    style = doc.styles["Normal"]
    style.font.name = "Calibri"
    style.font.size = Pt(11)
    footer = doc.sections[0].footer.paragraphs[0]
    footer.text = f"{FIRM} · {ADDRESS}"
    footer.runs[0].font.size = Pt(8)
    return doc


def table(doc, header, rows, widths=None, bold_last=False):
    t = doc.add_table(rows=1, cols=len(header))
    t.style = "Table Grid"
    for cell, text in zip(t.rows[0].cells, header, strict=True):
        cell.text = ""
        run = cell.paragraphs[0].add_run(text)
        run.bold = True
    for i, row in enumerate(rows):
        cells = t.add_row().cells
        for cell, text in zip(cells, row, strict=False):
            cell.text = ""
            run = cell.paragraphs[0].add_run(text)
            if bold_last and i == len(rows) - 1:
                run.bold = True
    doc.add_paragraph()
    return t


def letterhead(doc):
    p = doc.add_paragraph()
    r = p.add_run("HOLLIN & REED")
    r.bold = True
    r.font.size = Pt(18)
    p.add_run("\nLandscape design and build")
    p.alignment = WD_ALIGN_PARAGRAPH.RIGHT


def handbook(path: Path):
    doc = new_doc("Staff handbook 2025", "Priya Nair", "06/01/2025")
    doc.add_heading("Staff handbook", 0)
    doc.add_paragraph("Version 4 · issued January 2025 · approved by Martha Hollin, Managing Director")
    doc.add_paragraph(
        "This handbook replaces the 2021 edition and the separate vehicle policy. If anything here is "
        "unclear, "
        "ask Priya Nair in the office."
    )
    doc.add_heading("1 Welcome", 1)
    doc.add_paragraph(
        "Hollin & Reed was started by Martha Hollin in 2009 and Tom Reed joined as a director in 2012. We "
        "design "
        "gardens and public spaces and build them with our own teams, so designers and landscapers work "
        "closely "
        "together on every job."
    )
    doc.add_heading("2 Working hours", 1)
    doc.add_heading("2.1 Office and studio", 2)
    doc.add_paragraph(
        "The office and design studio are open 8:30 to 17:00, Monday to Friday, with an hour for lunch. "
        "Designers "
        "may start between 8:00 and 9:30 by agreement with Martha."
    )
    doc.add_heading("2.2 Site teams", 2)
    doc.add_paragraph(
        "Site teams work 7:30 to 16:00, Monday to Friday, with a 30-minute lunch break. Vans leave the yard "
        "at "
        "Bowbridge Works at 7:15, so please be there by then. From November to February site work finishes "
        "at "
        "15:30 because of the light."
    )
    doc.add_heading("3 Holidays", 1)
    doc.add_heading("3.1 Entitlement", 2)
    doc.add_paragraph(
        "The holiday year runs from 1 January to 31 December. Full-time staff get 25 days plus the eight "
        "bank "
        "holidays. Staff with five or more full years' service on 1 January get one extra day, rising by a "
        "day for "
        "each further full year up to a maximum of 28 days. Part-time staff get the same pro rata."
    )
    doc.add_heading("3.2 Booking leave", 2)
    doc.add_paragraph(
        "Ask Priya Nair by email; she records every request in the leave tracker and passes it to your "
        "manager. "
        "Give at least four weeks' notice for more than five days off. No more than two people from the site "
        "teams "
        "can be off at the same time, and between 1 April and 31 May we only approve up to five consecutive "
        "days "
        "for site staff, because that is our busiest planting season."
    )
    doc.add_heading("3.3 Carrying over", 2)
    doc.add_paragraph(
        "You may carry over up to 5 unused days into the next holiday year, but they must be taken by 31 "
        "March or "
        "they are lost."
    )
    doc.add_heading("4 Sickness", 1)
    doc.add_heading("4.1 Telling us", 2)
    doc.add_paragraph(
        "If you are on a site team, phone Dave Mitchell (contracts manager) on 07700 900412 before 7:00 so "
        "that the "
        "vans can be re-planned. Office staff phone Priya Nair before 9:00. A text or WhatsApp message is "
        "not "
        "enough."
    )
    doc.add_heading("4.2 Certificates and sick pay", 2)
    doc.add_paragraph(
        "For up to seven calendar days you fill in a self-certification form when you are back. After that "
        "we need "
        "a fit note from your doctor. Once you have passed probation, we pay full pay for up to 10 working "
        "days of "
        "sickness in any holiday year, then statutory sick pay."
    )
    doc.add_heading("5 Expenses", 1)
    doc.add_heading("5.1 Mileage", 2)
    doc.add_paragraph(
        "If you use your own car for work journeys (not your commute), we pay 45p per mile. Claim it on the "
        "monthly "
        "expenses form."
    )
    doc.add_heading("5.2 Meals away from base", 2)
    doc.add_paragraph(
        "When a site is more than 40 miles from the yard, you can claim a meal allowance of £8.50 per day "
        "worked "
        "there; receipts are not needed. There is no meal allowance for sites nearer than that."
    )
    doc.add_heading("5.3 Claiming", 2)
    doc.add_paragraph(
        "Send the expenses form, with receipts, to Helen Dorsey by the 5th of the following month. Claims "
        "are paid "
        "with that month's salary."
    )
    doc.add_heading("6 Vans and driving", 1)
    doc.add_paragraph(
        "Company vans stay at the yard overnight unless Tom Reed has agreed otherwise in writing, and they "
        "must not "
        "be used for personal journeys. Every van has a tracker."
    )
    doc.add_paragraph(
        "The main driver checks tyres, oil, coolant and lights every Monday morning and signs the sheet in "
        "the "
        "cab. Parking and speeding fines are paid by the driver. No smoking or vaping in any vehicle."
    )
    doc.add_heading("7 PPE and workwear", 1)
    doc.add_paragraph(
        "We provide hi-vis, gloves, eye protection and ear defenders, and replace them when they wear out. "
        "Site "
        "staff get three polo shirts and one fleece a year."
    )
    doc.add_paragraph(
        "We reimburse up to £90 a year towards safety boots (S3 with midsole protection) on production of a "
        "receipt."
    )
    doc.add_heading("8 Training and development", 1)
    doc.add_paragraph(
        "Every member of staff has a training budget of £600 a year, agreed at your annual review. We also "
        "pay "
        "designers' membership of the Society of Garden Designers and renew everyone's CSCS and CPCS cards."
    )
    doc.add_heading("9 Probation", 1)
    doc.add_paragraph(
        "New staff have a six-month probation period, with reviews after three months and at the end."
    )
    doc.save(path)


def minutes_march(path: Path):
    doc = new_doc("Staff meeting minutes 12 March 2025", "Priya Nair", "13/03/2025")
    doc.add_heading("Staff meeting – minutes", 0)
    doc.add_paragraph("Wednesday 12 March 2025, 16:30, design studio")
    doc.add_paragraph(
        "Present: Martha Hollin (chair), Tom Reed, Priya Nair (minutes), Ewan Blackwood, Lucy Tran, Sam "
        "Okafor, "
        "Dave Mitchell, Kieran Walsh, Jo Pritchard, Ben Hughes, Aled Morgan, Maisie Clarke. Apologies: Helen "
        "Dorsey."
    )
    doc.add_heading("1 Trading", 2)
    doc.add_paragraph(
        "Martha said first-quarter turnover should come in at about £338,000, a little ahead of budget. "
        "Ashcombe "
        "House is on track to finish at the end of March."
    )
    doc.add_heading("2 Rate card", 2)
    doc.add_paragraph("The 2025 rate card has applied since 1 January. No client has queried it so far.")
    doc.add_heading("3 Health and safety", 2)
    doc.add_paragraph(
        "Near miss at Ashcombe House on 27 February: a loaded dumper tipped onto its side while reversing on "
        "the "
        "slope by the top terrace. Nobody was hurt; Ben Hughes was driving and jumped clear. HireQuip "
        "inspected the "
        "dumper and found no damage. Dave will run a dumper refresher for everyone on the site teams."
    )
    doc.add_heading("4 Vans", 2)
    doc.add_paragraph(
        "The lease on Van 2 (the tipper Jo drives) ends on 31 October. Tom will bring three quotes to the "
        "June "
        "meeting, at least one of them for an electric van."
    )
    doc.add_heading("5 Software", 2)
    doc.add_paragraph("Vectorworks is due for renewal in April for three seats, £2,940 plus VAT.")
    doc.add_heading("6 Lone working", 2)
    doc.add_paragraph(
        "Priya has trialled the SafeCheck app with Jo and will rewrite the lone working procedure around it."
    )
    doc.add_heading("7 Any other business", 2)
    doc.add_paragraph(
        "Lucy suggested holding the summer social at The Fleece in Amberley on Friday 27 June. Agreed."
    )
    doc.add_heading("Actions", 1)
    table(
        doc,
        ["Action", "Owner", "Due"],
        [
            ["Dumper refresher for all site staff", "Dave Mitchell", "4 Apr 2025"],
            ["Three quotes to replace Van 2, at least one electric", "Tom Reed", "18 Jun 2025"],
            ["Renew Vectorworks (3 seats)", "Priya Nair", "15 Apr 2025"],
            ["Rewrite HS-07 lone working procedure for SafeCheck", "Priya Nair", "30 Apr 2025"],
            ["Book summer social, The Fleece, Amberley", "Lucy Tran", "31 Mar 2025"],
        ],
    )
    doc.add_paragraph("Next meeting: Wednesday 18 June 2025.")
    doc.save(path)


def minutes_june(path: Path):
    doc = new_doc("Staff meeting minutes 18 June 2025", "Priya Nair", "19/06/2025")
    doc.add_heading("Staff meeting – minutes", 0)
    doc.add_paragraph("Wednesday 18 June 2025, 16:30, design studio")
    doc.add_paragraph(
        "Present: Martha Hollin (chair), Tom Reed, Priya Nair (minutes), Helen Dorsey, Ewan Blackwood, Lucy "
        "Tran, "
        "Sam Okafor, Dave Mitchell, Kieran Walsh, Jo Pritchard, Ben Hughes, Aled Morgan. Apologies: Maisie "
        "Clarke "
        "(college)."
    )
    doc.add_heading("1 Medical centre", 2)
    doc.add_paragraph(
        "Stroud Valley Medical Centre was handed over on 6 June. The final account is £64,620, £130 under "
        "budget, "
        "and the snagging list was closed on 13 June."
    )
    doc.add_heading("2 Brimscombe Mill", 2)
    doc.add_paragraph(
        "Kestrel Homes accepted our proposal for the roof terrace on 2 June. Work on site starts on 1 "
        "September and "
        "Ewan will finish the construction drawings by mid-August."
    )
    doc.add_heading("3 Replacing Van 2", 2)
    doc.add_paragraph(
        "Tom presented three quotes: a diesel Transit tipper (£545 a month), a Ford E-Transit (£689 a month) "
        "and "
        "a Renault Master E-Tech (£712 a month). We agreed to lease the Ford E-Transit from November on a "
        "four-year lease."
    )
    doc.add_paragraph(
        "The E-Transit costs more each month but should save about £2,900 a year in fuel, and both Kestrel "
        "and the "
        "town council now score their contractors on carbon."
    )
    doc.add_heading("4 Holly Lane Primary", 2)
    doc.add_paragraph(
        "The sensory garden will be built from 21 July to 29 August while the school is closed. Lucy will "
        "write to "
        "parents about access for the holiday club."
    )
    doc.add_heading("5 Training", 2)
    doc.add_paragraph("Dave will give a CAT and Genny refresher toolbox talk on 2 July at the yard.")
    doc.add_heading("Actions", 1)
    table(
        doc,
        ["Action", "Owner", "Due"],
        [
            ["Order E-Transit and arrange a charge point at the yard", "Tom Reed", "31 Jul 2025"],
            ["Construction drawings for Brimscombe Mill", "Ewan Blackwood", "15 Aug 2025"],
            ["CAT and Genny toolbox talk", "Dave Mitchell", "2 Jul 2025"],
            ["Letter to Holly Lane parents about site access", "Lucy Tran", "4 Jul 2025"],
            ["Chase Medical Centre retention", "Helen Dorsey", "8 Dec 2025"],
        ],
    )
    doc.save(path)


COST_FINAL = [
    ["Design fees", "£7,800", "£7,800", "£0"],
    ["Groundworks and drainage", "£14,200", "£15,950", "£1,750"],
    ["Porcelain paving and edging", "£18,600", "£19,480", "£880"],
    ["Planting and trees", "£11,300", "£10,870", "-£430"],
    ["Benches and cycle shelter", "£6,400", "£6,400", "£0"],
    ["Irrigation", "£3,950", "£4,120", "£170"],
    ["Contingency", "£2,500", "£0", "-£2,500"],
    ["Total", "£64,750", "£64,620", "-£130"],
]
COST_DRAFT = [
    ["Design fees", "£7,800", "£7,800", "£0"],
    ["Groundworks and drainage", "£14,200", "£15,100", "£900"],
    ["Porcelain paving and edging", "£18,600", "£18,950", "£350"],
    ["Planting and trees", "£11,300", "£10,870", "-£430"],
    ["Benches and cycle shelter", "£6,400", "£6,400", "£0"],
    ["Irrigation", "£3,950", "£4,120", "£170"],
    ["Contingency", "£2,500", "£0", "-£2,500"],
    ["Total", "£64,750", "£63,240", "-£1,510"],
]


def completion_report(path: Path, final: bool):
    when = "27/06/2025" if final else "13/06/2025"
    doc = new_doc("Completion report – Stroud Valley Medical Centre", "Ewan Blackwood", when)
    if not final:
        p = doc.add_paragraph()
        r = p.add_run("DRAFT – for internal review, not for issue")
        r.bold = True
    doc.add_heading("Stroud Valley Medical Centre – landscape works", 0)
    doc.add_paragraph("Completion report · project P-2041")
    doc.add_paragraph(
        "Prepared for Nadia Rees, Practice Manager, Stroud Valley Medical Practice. Prepared by Ewan "
        "Blackwood. " + ("Issue: FINAL, 27 June 2025." if final else "Draft of 13 June 2025.")
    )
    doc.add_heading("1 Summary", 1)
    if final:
        doc.add_paragraph(
            "The works were handed over on 6 June 2025, one week after the target date of 30 May, because of "
            "the "
            "land drain described in section 4. The final cost is £64,620 against a contract sum of £64,750."
        )
    else:
        doc.add_paragraph(
            "The works were handed over on 6 June 2025. The cost so far is £63,240 against a contract sum of "
            "£64,750; the groundworks figure awaits HireQuip's final invoice for the extended digger hire."
        )
    doc.add_heading("2 Works carried out", 1)
    for item in [
        "New porcelain paving to the entrance courtyard and the path to the pharmacy door.",
        "Steel-edged planting beds with shade-tolerant shrubs and twelve semi-mature field maples.",
        "Two oak benches and a covered cycle shelter for 14 bikes.",
        "Drip irrigation to all beds, run from a timer in the plant room.",
    ]:
        doc.add_paragraph(item, style="List Bullet")
    doc.add_heading("3 Costs", 1)
    table(
        doc,
        ["Item", "Budget", "Final cost", "Difference"],
        COST_FINAL if final else COST_DRAFT,
        bold_last=True,
    )
    doc.add_heading("4 Variations and issues", 1)
    doc.add_paragraph(
        "During excavation for the cycle shelter base we found an unrecorded clay land drain running along "
        "the north "
        "boundary. It had to be rerouted to the new soakaway, which added eight working days and three weeks "
        "of "
        "extra digger hire."
    )
    doc.add_paragraph(
        "The porcelain paving went up in price between order and delivery; Cotswold Stone Supplies held the "
        "original price for the edging only."
    )
    doc.add_heading("5 Defects period and retention", 1)
    if final:
        doc.add_paragraph(
            "A retention of 2.5% of the contract sum (£1,618.75) is held by the practice until the end of "
            "the "
            "six-month defects period on 6 December 2025."
        )
    else:
        doc.add_paragraph(
            "A retention of 5% (£3,237.50) is held by the practice until the end of the twelve-month defects "
            "period."
        )
    doc.add_heading("6 Aftercare", 1)
    doc.add_paragraph(
        "We will visit once a month until March 2026 to water, weed and check the trees' ties; this is "
        "included in "
        "the planting price."
    )
    doc.save(path)


def proposal(path: Path):
    doc = new_doc("Proposal – The Old Rectory, Painswick", "Martha Hollin", "22/09/2025")
    letterhead(doc)
    doc.add_heading("The Old Rectory, Painswick – garden proposal", 0)
    doc.add_paragraph(
        "Prepared for Dr Olivia Marsh · prepared by Martha Hollin · 22 September 2025 · ref P-2048"
    )
    doc.add_heading("1 Your brief", 1)
    doc.add_paragraph(
        "You asked us to restore the walled kitchen garden, to turn the paddock below the house into a "
        "wildflower "
        "meadow of about 0.4 hectares, and to build an oak pergola linking the terrace to the kitchen garden."
    )
    doc.add_heading("2 Our approach", 1)
    doc.add_paragraph(
        "We will keep the garden's Victorian layout and the old espaliered pears, and use local Cotswold "
        "stone for "
        "new paths so that they match the walls. The meadow will be sown with a native seed mix from local "
        "provenance after the paddock is stripped of its nutrient-rich turf."
    )
    doc.add_heading("3 Scope of works", 1)
    for item in [
        "Measured and topographical survey of the whole garden.",
        "Four raised vegetable beds in reclaimed brick and a gravel path grid in the walled garden.",
        "Green oak pergola, 14 metres long, on stone pads.",
        "Turf stripping, cultivation and seeding of the paddock meadow, with a mown path around it.",
        "Planting plans for the borders along the terrace.",
    ]:
        doc.add_paragraph(item, style="List Bullet")
    doc.add_heading("4 What is not included", 1)
    doc.add_paragraph(
        "The natural swimming pond we discussed at the first visit is not included: it would need a separate "
        "ecological survey and planning permission, and we would quote for it as a second phase."
    )
    doc.add_paragraph(
        "Repairs to the brickwork of the walled garden are also excluded; we can recommend a specialist."
    )
    doc.add_heading("5 Programme", 1)
    table(
        doc,
        ["Stage", "Timing"],
        [
            ["Survey and concept design", "October – November 2025"],
            ["Detailed design and planting plans", "December 2025"],
            ["Construction", "12 January – 24 April 2026"],
            ["Planting and meadow sowing", "April – May 2026"],
        ],
    )
    doc.add_heading("6 Fees", 1)
    table(
        doc,
        ["Stage", "Fee (excl. VAT)"],
        [
            ["1. Survey and concept design", "£3,200"],
            ["2. Detailed design and planting plans", "£5,400"],
            ["3. Construction (estimate)", "£62,800"],
            ["4. Planting and first-year aftercare", "£2,800"],
            ["Total", "£74,200"],
        ],
        bold_last=True,
    )
    doc.add_heading("7 Next steps", 1)
    doc.add_paragraph(
        "This proposal is valid for 60 days. To go ahead, sign and return the acceptance form. We invoice "
        "each design "
        "stage when it is complete and construction monthly."
    )
    doc.save(path)


def letter_school(path: Path):
    doc = new_doc("Letter to Holly Lane Primary School", "Martha Hollin", "02/04/2025")
    letterhead(doc)
    doc.add_paragraph("2 April 2025")
    doc.add_paragraph("Mrs Ruth Evans\nHeadteacher\nHolly Lane Primary School\nHolly Lane\nStroud")
    doc.add_paragraph("Dear Mrs Evans")
    p = doc.add_paragraph()
    p.add_run("Sensory garden – our proposal and fee").bold = True
    doc.add_paragraph(
        "Thank you for showing Lucy Tran and me round the old nature area last week, and please thank the "
        "Year 4 "
        "children for their drawings, which Lucy has already used in the sketch design enclosed."
    )
    doc.add_paragraph(
        "Our total price for the sensory garden, including the scented planting, the willow tunnel, the "
        "water table "
        "and the accessible paths, is £22,300 excluding VAT."
    )
    doc.add_paragraph(
        "Because the garden is being paid for by the PTA's fundraising, we have taken 10% off our design "
        "fees, which "
        "are now £2,430 instead of £2,700. That saving is already in the total above."
    )
    doc.add_paragraph(
        "We would build over the summer holidays, from 21 July to 29 August 2025, so that no pupils are on "
        "site "
        "while we work. Our site team would be led by Jo Pritchard, and all of them hold enhanced DBS checks."
    )
    doc.add_paragraph(
        "If you and the governors are happy to go ahead, please sign and return the enclosed acceptance by "
        "16 May so "
        "that we can order the plants in time."
    )
    doc.add_paragraph("Yours sincerely")
    doc.add_paragraph("\n\nMartha Hollin\nManaging Director")
    doc.save(path)


def letter_kestrel(path: Path):
    doc = new_doc("Letter to Kestrel Homes – variation 01", "Tom Reed", "15/09/2025")
    letterhead(doc)
    doc.add_paragraph("15 September 2025")
    doc.add_paragraph("Gavin Shaw\nDevelopment Director\nKestrel Homes Ltd\nBrimscombe Hill\nBrimscombe")
    doc.add_paragraph("Dear Gavin")
    p = doc.add_paragraph()
    p.add_run("Brimscombe Mill roof terrace – variation 01: additional planters on level 5").bold = True
    doc.add_paragraph(
        "Further to your site meeting with Ewan Blackwood on 11 September, we are pleased to quote for the "
        "four "
        "additional Corten steel planters along the east parapet."
    )
    doc.add_paragraph(
        "Our price for variation 01 is £6,850 excluding VAT. It includes the planters, lightweight "
        "substrate, "
        "planting and connection to the terrace irrigation."
    )
    doc.add_paragraph(
        "The planters have a four-week lead time, so to keep to the programme we need your written "
        "instruction by "
        "Friday 3 October 2025. If it reaches us later, the handover date of 19 December 2025 may move."
    )
    doc.add_paragraph("Yours sincerely")
    doc.add_paragraph("\n\nTom Reed\nDirector")
    doc.save(path)


def hs04(path: Path):
    doc = new_doc("HS-04 Safe use of the mini-digger", "Dave Mitchell", "10/02/2025")
    doc.add_heading("HS-04 Safe use of the mini-digger", 0)
    doc.add_paragraph(
        "This procedure applies to the 1.5 tonne mini-digger, whether it is our own or hired. Read it with "
        "the "
        "risk assessment for the site. Anyone who does not follow it will be taken off the machine."
    )
    doc.add_heading("Procedure", 1)
    for step in [
        "Check that you hold a valid CPCS or NPORS card for the mini-digger and that Dave Mitchell has "
        "signed the "
        "permit to dig for this site.",
        "Scan the dig area with the CAT and Genny and mark any services found (see the toolbox talk on "
        "underground "
        "services).",
        "Do the daily pre-use check on the sheet kept in the document tube behind the seat, and sign it.",
        "Set up an exclusion zone of at least 3 metres around the machine's reach with barriers or cones, "
        "and keep "
        "everyone else out of it.",
        "Wear your seat belt whenever the engine is running.",
        "Travel with the bucket low, no more than 300 mm above the ground, and never carry people in the "
        "bucket.",
        "Keep the machine at least 1 metre back from the edge of any trench deeper than 1.2 metres.",
        "Do not work on slopes steeper than 1 in 5 without Dave Mitchell's agreement.",
        "At the end of the shift, park on level ground, lower the bucket and blade to the ground, take out "
        "the key "
        "and hand it to the site foreman.",
        "Report any fault to Dave Mitchell the same day and hang a DO NOT USE tag on the controls.",
    ]:
        doc.add_paragraph(step, style="List Number")
    doc.add_heading("Document control", 1)
    table(
        doc, ["Version", "Date", "Owner", "Next review"], [["3", "10 Feb 2025", "Dave Mitchell", "Feb 2026"]]
    )
    doc.save(path)


def hs07(path: Path):
    doc = new_doc("HS-07 Lone working procedure", "Priya Nair", "28/04/2025")
    doc.add_heading("HS-07 Lone working procedure", 0)
    doc.add_paragraph("Version 2 · 28 April 2025 · owner Priya Nair · replaces version 1 (2021)")
    doc.add_heading("What counts as lone working", 1)
    doc.add_paragraph(
        "Lone working means any time you are on a site, in a client's garden or out surveying with no other "
        "Hollin & "
        "Reed staff within sight or earshot. Designers doing site surveys are lone workers too."
    )
    doc.add_heading("Checking in", 1)
    for step in [
        "Tell the office the address and your expected finish time before you set off.",
        "Check in on the SafeCheck app when you arrive, then every two hours, and check out when you leave.",
        "If you miss a check-in by 30 minutes, the office (Priya, or Dave after 17:00) will phone you.",
        "If you do not answer within a further 15 minutes, the nearest foreman will be sent to the site.",
        "If you still cannot be found an hour after the missed check-in, the office will call 999.",
    ]:
        doc.add_paragraph(step, style="List Number")
    doc.add_heading("Jobs that are never done alone", 1)
    doc.add_paragraph(
        "Never work alone on chainsaw work, hedge cutting above head height, anything within 2 metres of "
        "water deeper "
        "than 1 metre, operating the mini-digger or dumper, or lifting anything over 25 kg."
    )
    doc.add_heading("Phones", 1)
    doc.add_paragraph(
        "Keep your phone charged and on you, not in the van. If a site has no signal, tell the office "
        "beforehand and "
        "agree a time to ring in from the nearest place that has one."
    )
    doc.save(path)


def vehicle_policy_2018(path: Path):
    doc = new_doc("Company vehicle policy", "Martha Hollin", "05/03/2018")
    doc.add_heading("Company vehicle policy", 0)
    doc.add_paragraph("Hollin & Reed Landscapes · March 2018")
    for item in [
        "Site foremen may take their allocated van home overnight and drive it straight to site in the "
        "morning. All "
        "other vans must be parked in the yard at Bowbridge Works by 17:30.",
        "Staff using their own car on company business are paid 40p per mile.",
        "Fuel cards are for company vans only and the PIN must not be written on the card.",
        "Parking and speeding fines are the driver's responsibility.",
        "Report any damage to the office the same day, with photos.",
    ]:
        doc.add_paragraph(item, style="List Number")
    doc.add_paragraph("Martha Hollin, Director, 5 March 2018")
    doc.save(path)


# --------------------------------------------------------------------------------------------- Excel

BOLD = Font(bold=True)


def new_wb(author: str, when: str) -> Workbook:
    wb = Workbook()
    wb.properties.creator = author
    wb.properties.lastModifiedBy = author
    wb.properties.created = d(when)
    wb.properties.modified = d(when)
    return wb


HEAD_FILL = PatternFill("solid", fgColor="D9E7CB")


def sheet(ws, header, rows, formats=None, widths=None, start_row=1, title=None):
    """Write a header and rows; formats maps column index to a number format."""
    r = start_row
    if title:
        ws.cell(row=r, column=1, value=title).font = Font(bold=True, size=13)
        r += 2
    for c, h in enumerate(header, 1):
        cell = ws.cell(row=r, column=c, value=h)
        cell.font = BOLD
        cell.fill = HEAD_FILL
        cell.alignment = Alignment(wrap_text=True, vertical="top")
    ws.freeze_panes = ws.cell(row=r + 1, column=1)
    for row in rows:
        r += 1
        for c, v in enumerate(row, 1):
            if v is None:
                continue
            cell = ws.cell(row=r, column=c, value=v)
            if formats and c in formats:
                cell.number_format = formats[c]
    for i, w in enumerate(widths or [], 1):
        ws.column_dimensions[chr(64 + i)].width = w
    return r


def rate_card(path: Path, year: int):
    y25 = year == 2025
    wb = new_wb("Martha Hollin", "09/12/2024" if y25 else "11/12/2023")
    ws = wb.active
    ws.title = "Day rates"
    roles = [
        ("Principal designer", 90 if y25 else 85, 680 if y25 else 640),
        ("Senior designer", 68 if y25 else 65, 520 if y25 else 490),
        ("Garden designer", 58 if y25 else 55, 440 if y25 else 410),
        ("CAD technician", 45 if y25 else 42, 340 if y25 else 315),
        ("Site foreman", 40 if y25 else 38, 305 if y25 else 290),
        ("Landscaper", 34 if y25 else 32, 260 if y25 else 245),
        ("Apprentice landscaper", 22 if y25 else 20, 165 if y25 else 150),
    ]
    sheet(
        ws,
        ["Role", "Hourly rate", "Day rate (8 hours)"],
        [list(r) for r in roles],
        formats={2: GBP2, 3: GBP2},
        widths=[28, 14, 20],
        title=f"Hollin & Reed – rate card {year} (excluding VAT)",
    )
    ws2 = wb.create_sheet("Plant and extras")
    sheet(
        ws2,
        ["Item", "Unit", "Price"],
        [
            ["Mini-digger (1.5 t) with operator", "per day", 335 if y25 else 310],
            ["Tracked dumper (1 t)", "per day", 105 if y25 else 95],
            ["Skip (8 yard)", "each", 285 if y25 else 260],
            ["Initial design consultation (up to 2 hours)", "each", 175 if y25 else 150],
            ["Travel beyond 20 miles of the yard", "per mile", 0.60 if y25 else 0.55],
        ],
        formats={3: GBP2},
        widths=[44, 12, 12],
    )
    r = ws2.max_row + 1
    ws2.cell(row=r, column=1, value="Markup on materials (on cost)")
    c = ws2.cell(row=r, column=3, value=0.175 if y25 else 0.15)
    c.number_format = PCT1
    ws3 = wb.create_sheet("Notes")
    notes = [
        f"Rates apply to work carried out from 1 January {year}.",
        "Approved by Martha Hollin on 9 December 2024."
        if y25
        else "Approved by Martha Hollin on 11 December 2023.",
        "A day rate covers 8 hours on site or in the studio, including travel within 20 miles of the yard.",
        "Rates are reviewed every December.",
    ]
    for i, n in enumerate(notes, 1):
        ws3.cell(row=i, column=1, value=n)
    ws3.column_dimensions["A"].width = 90
    wb.save(path)


def budget(path: Path):
    wb = new_wb("Helen Dorsey", "14/10/2025")
    ws = wb.active
    ws.title = "Monthly"
    months = [
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
    ]
    budgets = [9800, 9800, 10400, 11200, 11200, 11200, 10600, 10600, 10600, 10400, 9800, 9800]
    actuals = [9420, 10150, 11960, 11050, 12930, 10880, 11240, 9970, 11420, None, None, None]
    ws.cell(row=1, column=1, value="Overheads (excluding staff costs): budget v actual 2025").font = Font(
        bold=True, size=13
    )
    hdr = ["Month", "Budget", "Actual", "Variance", "Variance %"]
    for c, h in enumerate(hdr, 1):
        cell = ws.cell(row=3, column=c, value=h)
        cell.font = BOLD
        cell.fill = HEAD_FILL
    for i, (m, b, a) in enumerate(zip(months, budgets, actuals, strict=True)):
        r = 4 + i
        ws.cell(row=r, column=1, value=m)
        ws.cell(row=r, column=2, value=b).number_format = GBP0
        if a is not None:
            ws.cell(row=r, column=3, value=a).number_format = GBP0
            ws.cell(row=r, column=4, value=f"=C{r}-B{r}").number_format = GBP0
            ws.cell(row=r, column=5, value=f"=D{r}/B{r}").number_format = PCT1
    ws.cell(row=16, column=1, value="Year to September").font = BOLD
    ws.cell(row=16, column=2, value="=SUM(B4:B12)").number_format = GBP0
    ws.cell(row=16, column=3, value="=SUM(C4:C12)").number_format = GBP0
    ws.cell(row=16, column=4, value="=C16-B16").number_format = GBP0
    ws.cell(row=16, column=5, value="=D16/B16").number_format = PCT1
    ws.cell(row=17, column=1, value="Full year budget").font = BOLD
    ws.cell(row=17, column=2, value="=SUM(B4:B15)").number_format = GBP0
    for col, w in zip("ABCDE", [20, 12, 12, 12, 12], strict=True):
        ws.column_dimensions[col].width = w

    ws2 = wb.create_sheet("By category")
    cats = [
        ("Vans – lease, fuel and repairs", 24000, 19340),
        ("Plant hire", 18500, 16210),
        ("Rent and rates (yard and office)", 21600, 16200),
        ("Insurance", 7800, 5990),
        ("Software and IT", 4200, 3480),
        ("Training", 7200, 3960),
        ("Marketing and shows", 5500, 4900),
        ("Office and admin", 6000, 4260),
        ("PPE and workwear", 3100, 2150),
        ("Utilities (yard)", 6000, 4730),
        ("Professional fees", 8400, 6150),
        ("Bank and finance charges", 2300, 1810),
        ("Repairs and small tools", 5100, 4940),
        ("Subscriptions and memberships", 1700, 1640),
        ("Telephone and broadband", 4000, 3260),
    ]
    ws2.cell(row=1, column=1, value="Overheads by category, year to 30 September 2025").font = Font(
        bold=True, size=13
    )
    hdr = ["Category", "Annual budget", "Budget to Sep", "Actual to Sep", "Variance"]
    for c, h in enumerate(hdr, 1):
        cell = ws2.cell(row=3, column=c, value=h)
        cell.font = BOLD
        cell.fill = HEAD_FILL
    for i, (name, annual, actual) in enumerate(cats):
        r = 4 + i
        ws2.cell(row=r, column=1, value=name)
        ws2.cell(row=r, column=2, value=annual).number_format = GBP0
        ws2.cell(row=r, column=3, value=f"=ROUND(B{r}*9/12,0)").number_format = GBP0
        ws2.cell(row=r, column=4, value=actual).number_format = GBP0
        ws2.cell(row=r, column=5, value=f"=D{r}-C{r}").number_format = GBP0
    last = 3 + len(cats)
    tr = last + 1
    ws2.cell(row=tr, column=1, value="Total").font = BOLD
    for col in "BCDE":
        c = ws2[f"{col}{tr}"]
        c.value = f"=SUM({col}4:{col}{last})"
        c.number_format = GBP0
        c.font = BOLD
    for col, w in zip("ABCDE", [34, 14, 14, 14, 12], strict=True):
        ws2.column_dimensions[col].width = w

    ws3 = wb.create_sheet("Notes")
    for i, n in enumerate(
        [
            "Prepared by Helen Dorsey on 14 October 2025. Actuals are to 30 September 2025.",
            "Variance is actual minus budget, so a positive figure is an overspend.",
            "Budget to Sep is nine twelfths of the annual budget; the Monthly sheet uses the seasonal "
            "profile.",
            "Staff costs are in the payroll workbook and are not included here.",
            "Plant hire is over mainly because the digger hire for the medical centre groundworks ran three "
            "weeks "
            "longer than planned.",
            "Training is under because two courses booked for the autumn move into 2026.",
        ],
        1,
    ):
        ws3.cell(row=i, column=1, value=n)
    ws3.column_dimensions["A"].width = 100
    wb.save(path)


def tracker(path: Path):
    wb = new_wb("Priya Nair", "31/10/2025")
    ws = wb.active
    ws.title = "Live projects"
    fm = {6: DATE, 7: DATE, 9: PCT0, 10: GBP0}
    sheet(
        ws,
        [
            "Code",
            "Project",
            "Client",
            "Design lead",
            "Site lead",
            "Start",
            "Target completion",
            "Status",
            "% complete",
            "Contract value",
            "Notes",
        ],
        [
            [
                "P-2046",
                "Brimscombe Mill roof terrace",
                "Kestrel Homes",
                "Ewan Blackwood",
                "Kieran Walsh",
                d("01/09/2025"),
                d("19/12/2025"),
                "In progress",
                0.55,
                118900,
                "Crane lifts done 26 Sep",
            ],
            [
                "P-2047",
                "Chalford Hill garden",
                "Mr N. Ashdown",
                "Lucy Tran",
                "Jo Pritchard",
                d("18/08/2025"),
                d("31/10/2025"),
                "On hold",
                0.2,
                29800,
                "Client waiting for a planning decision on the new garage; no restart before spring 2026",
            ],
            [
                "P-2048",
                "The Old Rectory, Painswick",
                "Dr Olivia Marsh",
                "Martha Hollin",
                "Kieran Walsh",
                d("12/01/2026"),
                d("24/04/2026"),
                "Proposal sent",
                0,
                74200,
                "Proposal issued 22 Sep",
            ],
            [
                "P-2049",
                "Nailsworth riverside walk",
                "Nailsworth Town Council",
                "Ewan Blackwood",
                "Jo Pritchard",
                d("06/10/2025"),
                d("27/03/2026"),
                "Design stage",
                0.3,
                41600,
                "Consultation boards at the library 17-21 Nov",
            ],
            [
                "P-2051",
                "Rodborough Lane front gardens",
                "Severn Vale Housing",
                "Sam Okafor",
                "Jo Pritchard",
                d("03/11/2025"),
                d("12/12/2025"),
                "Starting",
                0,
                18250,
                "Six tenants' front gardens",
            ],
        ],
        formats=fm,
        widths=[9, 30, 24, 16, 14, 12, 12, 14, 11, 14, 60],
        title="Project tracker 2025 – updated 31/10/2025 by Priya Nair",
    )
    ws2 = wb.create_sheet("Completed 2025")
    sheet(
        ws2,
        [
            "Code",
            "Project",
            "Client",
            "Design lead",
            "Site lead",
            "Start",
            "Target completion",
            "Handover",
            "Contract value",
            "Notes",
        ],
        [
            [
                "P-2039",
                "Ashcombe House courtyard",
                "Mr and Mrs Fairlie",
                "Lucy Tran",
                "Kieran Walsh",
                d("13/01/2025"),
                d("28/03/2025"),
                d("04/04/2025"),
                38400,
                "Final account £39,150 (extra steps)",
            ],
            [
                "P-2041",
                "Stroud Valley Medical Centre",
                "Stroud Valley Medical Practice",
                "Ewan Blackwood",
                "Kieran Walsh",
                d("10/02/2025"),
                d("30/05/2025"),
                d("06/06/2025"),
                64750,
                "Retention due 6 Dec 2025",
            ],
            [
                "P-2044",
                "Holly Lane Primary sensory garden",
                "Holly Lane Primary School",
                "Lucy Tran",
                "Jo Pritchard",
                d("21/07/2025"),
                d("29/08/2025"),
                d("28/08/2025"),
                22300,
                "Opened by the pupils on 3 Sep",
            ],
        ],
        formats={6: DATE, 7: DATE, 8: DATE, 9: GBP0},
        widths=[9, 32, 28, 16, 14, 12, 12, 12, 14, 40],
    )
    ws3 = wb.create_sheet("Key")
    for i, (k, v) in enumerate(
        [
            ("Proposal sent", "Fee proposal with the client, not yet accepted"),
            ("Design stage", "Accepted; surveys and design under way"),
            ("Starting", "Start date within four weeks; materials being ordered"),
            ("In progress", "Team on site"),
            ("On hold", "Stopped at the client's request"),
        ],
        1,
    ):
        ws3.cell(row=i, column=1, value=k).font = BOLD
        ws3.cell(row=i, column=2, value=v)
    ws3.column_dimensions["A"].width = 16
    ws3.column_dimensions["B"].width = 60
    wb.save(path)


def leave(path: Path):
    wb = new_wb("Priya Nair", "31/10/2025")
    ws = wb.active
    ws.title = "Allowances"
    staff = [
        ("Martha Hollin", "Managing Director", "01/04/2009", 28, 3, 20, 3),
        ("Tom Reed", "Director (Build)", "03/09/2012", 28, 0, 22, 3),
        ("Priya Nair", "Office Manager", "14/01/2019", 26, 2, 19, 4),
        ("Helen Dorsey", "Bookkeeper (part-time)", "07/06/2021", 10, 0, 6, 2),
        ("Ewan Blackwood", "Senior Designer", "03/05/2016", 28, 5, 24, 5),
        ("Lucy Tran", "Garden Designer", "02/03/2020", 25, 1, 21, 3),
        ("Sam Okafor", "Junior Designer", "11/09/2023", 25, 0, 15, 5),
        ("Dave Mitchell", "Contracts Manager", "09/07/2018", 27, 4, 18, 2),
        ("Kieran Walsh", "Site Foreman", "13/02/2017", 28, 0, 21, 3),
        ("Jo Pritchard", "Site Foreman", "04/04/2022", 25, 2, 20, 0),
        ("Ben Hughes", "Landscaper", "19/08/2019", 26, 0, 22, 2),
        ("Aled Morgan", "Landscaper", "01/03/2021", 25, 3, 19, 5),
        ("Maisie Clarke", "Apprentice Landscaper", "09/09/2024", 25, 0, 14, 0),
    ]
    ws.cell(row=1, column=1, value="Holiday 2025 – days, as at 31/10/2025").font = Font(bold=True, size=13)
    hdr = ["Name", "Role", "Start date", "Entitlement", "Carried over", "Taken", "Booked", "Remaining"]
    for c, h in enumerate(hdr, 1):
        cell = ws.cell(row=3, column=c, value=h)
        cell.font = BOLD
        cell.fill = HEAD_FILL
    for i, (n, role, start, ent, co, taken, booked) in enumerate(staff):
        r = 4 + i
        ws.cell(row=r, column=1, value=n)
        ws.cell(row=r, column=2, value=role)
        ws.cell(row=r, column=3, value=d(start)).number_format = DATE
        ws.cell(row=r, column=4, value=ent)
        ws.cell(row=r, column=5, value=co)
        ws.cell(row=r, column=6, value=taken)
        ws.cell(row=r, column=7, value=booked)
        ws.cell(row=r, column=8, value=f"=D{r}+E{r}-F{r}-G{r}")
    for col, w in zip("ABCDEFGH", [18, 24, 12, 12, 12, 8, 8, 11], strict=True):
        ws.column_dimensions[col].width = w
    ws2 = wb.create_sheet("Requests")
    sheet(
        ws2,
        ["Name", "From", "To", "Working days", "Type", "Approved by", "Notes"],
        [
            [
                "Aled Morgan",
                d("10/02/2025"),
                d("12/02/2025"),
                3,
                "Sickness",
                "Dave Mitchell",
                "Self-certified",
            ],
            ["Priya Nair", d("17/03/2025"), d("21/03/2025"), 5, "Annual leave", "Martha Hollin", None],
            [
                "Ewan Blackwood",
                d("14/04/2025"),
                d("17/04/2025"),
                4,
                "Annual leave",
                "Martha Hollin",
                "Easter",
            ],
            ["Dave Mitchell", d("27/05/2025"), d("30/05/2025"), 4, "Annual leave", "Tom Reed", None],
            ["Ben Hughes", d("02/06/2025"), d("06/06/2025"), 5, "Annual leave", "Dave Mitchell", None],
            ["Jo Pritchard", d("07/07/2025"), d("18/07/2025"), 10, "Annual leave", "Dave Mitchell", None],
            ["Tom Reed", d("04/08/2025"), d("15/08/2025"), 10, "Annual leave", "Martha Hollin", None],
            [
                "Helen Dorsey",
                d("19/08/2025"),
                d("21/08/2025"),
                2,
                "Annual leave",
                "Priya Nair",
                "Tue and Thu only",
            ],
            ["Lucy Tran", d("22/09/2025"), d("03/10/2025"), 10, "Annual leave", "Martha Hollin", None],
            ["Martha Hollin", d("13/10/2025"), d("24/10/2025"), 10, "Annual leave", "Tom Reed", None],
            ["Aled Morgan", d("03/11/2025"), d("07/11/2025"), 5, "Annual leave", "Dave Mitchell", "Booked"],
            [
                "Maisie Clarke",
                d("10/11/2025"),
                d("14/11/2025"),
                5,
                "Study leave",
                "Dave Mitchell",
                "College block week at Cotswold Land-Based College, Cirencester",
            ],
            ["Kieran Walsh", d("22/12/2025"), d("24/12/2025"), 3, "Annual leave", "Dave Mitchell", "Booked"],
            ["Sam Okafor", d("23/12/2025"), d("31/12/2025"), 5, "Annual leave", "Ewan Blackwood", "Booked"],
        ],
        formats={2: DATE, 3: DATE},
        widths=[18, 12, 12, 13, 14, 16, 60],
    )
    wb.save(path)


def suppliers(path: Path):
    wb = new_wb("Priya Nair", "01/09/2025")
    ws = wb.active
    ws.title = "Suppliers"
    sheet(
        ws,
        ["Supplier", "Supplies", "Contact", "Phone", "Account no.", "Payment terms", "Trade discount"],
        [
            [
                "Cotswold Stone Supplies",
                "Natural stone and porcelain paving",
                "Jim Harker",
                "01632 960214",
                "CSS-4471",
                "30 days end of month",
                0.12,
            ],
            [
                "Greenfield Nurseries",
                "Plants and trees",
                "Anna Greenfield",
                "01632 960388",
                "GN-0932",
                "30 days",
                0.15,
            ],
            [
                "Severn Aggregates",
                "Sand, gravel and sub-base",
                "Mark Dowling",
                "01632 960517",
                "SA-2210",
                "30 days",
                0.08,
            ],
            [
                "TimberCraft Decking",
                "Timber and decking",
                "Rhys Bevan",
                "01632 960645",
                "TCD-118",
                "14 days",
                0.10,
            ],
            [
                "Forest Edge Timber",
                "Timber, decking and sleepers",
                "Claire Moffat",
                "01632 960471",
                "FET-3094",
                "30 days",
                0.08,
            ],
            ["HireQuip Stroud", "Plant hire", "Sharon Lacey", "01632 960702", "HQ-55810", "30 days", 0.05],
            ["Vale Turf Co.", "Turf and topsoil", "Phil Stanton", "01632 960833", "VT-3307", "Pro forma", 0],
            [
                "Gabion Direct",
                "Gabions and steel edging",
                "Karen Moss",
                "01632 960919",
                "GD-7702",
                "30 days",
                0.07,
            ],
            [
                "Brightwater Irrigation",
                "Irrigation",
                "Imran Siddiqui",
                "01632 960160",
                "BWI-260",
                "30 days",
                0.10,
            ],
        ],
        formats={7: PCT0},
        widths=[24, 34, 16, 14, 12, 20, 14],
    )
    ws2 = wb.create_sheet("Approval status")
    sheet(
        ws2,
        ["Supplier", "Status", "Insurance checked", "Next review", "Notes"],
        [
            ["Cotswold Stone Supplies", "Preferred", d("12/02/2025"), d("12/02/2026"), None],
            ["Greenfield Nurseries", "Preferred", d("12/02/2025"), d("12/02/2026"), None],
            ["Severn Aggregates", "Approved", d("03/03/2025"), d("03/03/2026"), None],
            [
                "TimberCraft Decking",
                "On stop",
                d("03/03/2025"),
                d("01/12/2025"),
                "On stop since 29 Aug 2025 after three late deliveries in August; one held up the Chalford "
                "Hill deck "
                "by a week. Use Forest Edge Timber instead.",
            ],
            ["Forest Edge Timber", "Approved", d("01/09/2025"), d("01/09/2026"), "Added Sep 2025"],
            ["HireQuip Stroud", "Preferred", d("20/01/2025"), d("20/01/2026"), None],
            ["Vale Turf Co.", "Approved", d("20/01/2025"), d("20/01/2026"), None],
            ["Gabion Direct", "Approved", d("07/04/2025"), d("07/04/2026"), None],
            ["Brightwater Irrigation", "Approved", d("07/04/2025"), d("07/04/2026"), None],
        ],
        formats={3: DATE, 4: DATE},
        widths=[24, 12, 16, 14, 90],
    )
    wb.save(path)


def van_register(path: Path):
    wb = new_wb("Priya Nair", "17/03/2025")
    ws = wb.active
    ws.title = "Vans"
    sheet(
        ws,
        [
            "Van",
            "Registration",
            "Make and model",
            "Main driver",
            "Lease ends",
            "MOT due",
            "Next service",
            "Notes",
        ],
        [
            [
                "Van 1",
                "WU21 HRL",
                "Ford Transit Custom",
                "Kieran Walsh",
                d("30/06/2026"),
                d("14/03/2026"),
                d("02/12/2025"),
                None,
            ],
            [
                "Van 2",
                "WU70 KLD",
                "Ford Transit tipper",
                "Jo Pritchard",
                d("31/10/2025"),
                d("21/11/2025"),
                d("15/09/2025"),
                "Lease ends Oct 2025 – Tom getting quotes",
            ],
            [
                "Van 3",
                "CK22 PXT",
                "Isuzu D-Max",
                "Dave Mitchell",
                d("31/03/2027"),
                d("09/05/2025"),
                d("20/01/2026"),
                "First MOT due May 2025",
            ],
            [
                "Van 4",
                "WP19 DFO",
                "VW Crafter crew cab",
                "Ben Hughes",
                "Owned",
                d("27/02/2026"),
                d("11/11/2025"),
                "Pool van, bought outright 2019",
            ],
        ],
        formats={5: DATE, 6: DATE, 7: DATE},
        widths=[8, 13, 22, 15, 12, 12, 13, 44],
        title="Van register – last updated 17/03/2025 (Priya)",
    )
    ws2 = wb.create_sheet("Fuel cards")
    sheet(
        ws2,
        ["Card ending", "Van", "Weekly limit"],
        [["4417", "Van 1", 250], ["4425", "Van 2", 250], ["4433", "Van 3", 200], ["4441", "Van 4", 200]],
        formats={3: GBP0},
        widths=[12, 8, 12],
    )
    wb.save(path)


def petty_cash(path: Path):
    wb = new_wb("Priya Nair", "09/10/2025")
    ws = wb.active
    ws.title = "2025"
    rows = [
        [d("07/01/2025"), "Milk, tea and coffee", "Co-op, Stroud", "Office", 12.40, "Yes"],
        [
            d("14/02/2025"),
            "First aid kit refills for vans 1-4",
            "Stroud Pharmacy",
            "Health and safety",
            46.75,
            "Yes",
        ],
        [d("03/03/2025"), "Postage – signed-for letters", "Post Office", "Office", 8.85, "Yes"],
        [d("14/05/2025"), "Padlocks x3 for yard gates", "Stroud Tool Centre", "Yard", 38.97, "Yes"],
        [d("11/06/2025"), "Cake for medical centre handover", "Mira's Bakery", "Clients", 32.00, "Yes"],
        [d("02/07/2025"), "Bacon rolls for toolbox talk", "Bowbridge Café", "Staff", 27.50, "No"],
        [d("28/08/2025"), "Bottled water for Holly Lane site", "Co-op, Stroud", "Site", 9.60, "Yes"],
        [
            d("09/10/2025"),
            "Key cutting, E-Transit charge point box",
            "Stroud Tool Centre",
            "Yard",
            6.50,
            "Yes",
        ],
    ]
    sheet(
        ws,
        ["Date", "Item", "Paid to", "Category", "Amount", "Receipt"],
        rows,
        formats={1: DATE, 5: GBP2},
        widths=[12, 40, 22, 18, 11, 9],
        title="Petty cash 2025 (float £200, kept by Priya)",
    )
    wb.save(path)


# --------------------------------------------------------------------------------------------- PowerPoint


def deck(author: str, when: str, title: str) -> Presentation:
    prs = Presentation()
    prs.slide_width = Inches(13.333)
    prs.slide_height = Inches(7.5)
    cp = prs.core_properties
    cp.author = author
    cp.last_modified_by = author
    cp.title = title
    cp.created = d(when)
    cp.modified = d(when)
    cp.comments = ""
    cp.revision = 3
    return prs


def title_slide(prs, title, subtitle, notes=None):
    s = prs.slides.add_slide(prs.slide_layouts[0])
    s.shapes.title.text = title
    s.placeholders[1].text = subtitle
    if notes:
        s.notes_slide.notes_text_frame.text = notes
    return s


def bullets(prs, title, items, notes=None):
    s = prs.slides.add_slide(prs.slide_layouts[1])
    s.shapes.title.text = title
    tf = s.placeholders[1].text_frame
    for i, it in enumerate(items):
        p = tf.paragraphs[0] if i == 0 else tf.add_paragraph()
        p.text = it
        p.font.size = PPt(24)
    if notes:
        s.notes_slide.notes_text_frame.text = notes
    return s


def table_slide(prs, title, header, rows, notes=None):
    s = prs.slides.add_slide(prs.slide_layouts[5])
    s.shapes.title.text = title
    shape = s.shapes.add_table(
        len(rows) + 1, len(header), Inches(1), Inches(1.8), Inches(11.3), Inches(0.6) * (len(rows) + 1)
    )
    t = shape.table
    for c, h in enumerate(header):
        t.cell(0, c).text = h
    for r, row in enumerate(rows, 1):
        for c, v in enumerate(row):
            t.cell(r, c).text = v
    if notes:
        s.notes_slide.notes_text_frame.text = notes
    return s


def q2_update(path: Path):
    prs = deck("Martha Hollin", "10/07/2025", "Q2 2025 quarterly update")
    title_slide(prs, "Q2 2025 quarterly update", "All-staff meeting · 10 July 2025 · Martha Hollin")
    bullets(
        prs,
        "Headlines",
        [
            "Turnover £412,000 in April–June, up 14% on Q2 2024",
            "Stroud Valley Medical Centre handed over on 6 June, £130 under budget",
            "Brimscombe Mill roof terrace won: £118,900, on site from 1 September",
            "Order book at 30 June: £286,000",
        ],
        notes="Thank Kieran's team for the medical centre. And congratulations to Lucy: her show garden at "
        "RHS "
        "Malvern in May won a silver-gilt medal, our first medal since 2019.",
    )
    table_slide(
        prs,
        "Quarter by quarter",
        ["Quarter", "Turnover", "Gross margin", "Jobs completed"],
        [
            ["Q2 2024", "£361,000", "29%", "5"],
            ["Q1 2025", "£338,000", "31%", "4"],
            ["Q2 2025", "£412,000", "34%", "6"],
        ],
        notes="Margin is up mainly because we did the medical centre groundworks ourselves instead of "
        "subcontracting them, even after paying for the extra digger hire.",
    )
    bullets(
        prs,
        "People",
        [
            "Maisie passed her CSCS card test in May",
            "Sam completed the Vectorworks Landmark course",
            "We are recruiting one more landscaper to start by September",
        ],
        notes="Salary budget for the new landscaper is £27,500. Ask everyone to pass the advert on.",
    )
    bullets(
        prs,
        "Safety",
        [
            "No RIDDOR-reportable incidents in the first half of 2025",
            "Near misses reported: 1 in Q1 (dumper at Ashcombe), 2 in Q2",
            "CAT and Genny refresher held on 2 July",
        ],
    )
    bullets(
        prs,
        "Q3 priorities",
        [
            "Holly Lane Primary sensory garden, 21 July – 29 August",
            "Brimscombe Mill starts 1 September",
            "E-Transit arrives in November; charge point at the yard by October",
            "Win two more commercial maintenance contracts",
        ],
    )
    prs.save(path)


def pitch(path: Path):
    prs = deck("Ewan Blackwood", "20/05/2025", "Brimscombe Mill roof garden – pitch to Kestrel Homes")
    title_slide(
        prs,
        "Brimscombe Mill – a roof garden for the Mill",
        "Prepared for Gavin Shaw, Kestrel Homes · 20 May 2025 · Ewan Blackwood and Tom Reed",
    )
    bullets(
        prs,
        "About Hollin & Reed",
        [
            "Design-and-build landscape firm in Stroud, founded 2009",
            "13 people: designers, site teams and office under one roof",
            "Over 140 gardens built across Gloucestershire",
            "Members of BALI and the Society of Garden Designers",
        ],
    )
    bullets(
        prs,
        "What we heard",
        [
            "A 420 m² shared terrace on level 5 for the residents of 38 apartments",
            "Exposed to westerly winds funnelling up the valley",
            "Roof loading limit of 250 kg/m² for finishes and planting",
            "Low maintenance: no more than one visit a month",
        ],
    )
    bullets(
        prs,
        "The concept: Mill race",
        [
            "A shallow recirculating rill recalling the old mill leat",
            "Porcelain pavers on adjustable pedestals over the waterproofing",
            "Multi-stem birches and grasses in lightweight substrate",
            "Slatted larch windbreak screens along the west edge",
        ],
        notes="Stress the pedestals: no wet trades on the membrane, and the pavers lift out for inspection.",
    )
    table_slide(
        prs,
        "Programme",
        ["Stage", "Dates"],
        [
            ["Design development", "June – July 2025"],
            ["Construction drawings", "by 15 August 2025"],
            ["Construction", "1 September – 19 December 2025"],
            ["Handover", "19 December 2025"],
        ],
    )
    bullets(
        prs,
        "Investment",
        [
            "Design and build: £118,900 excluding VAT",
            "Optional maintenance: £640 a month for the first 12 months",
            "Payment: monthly valuations, 2.5% retention",
        ],
        notes="The price assumes Kestrel's tower crane is still on site for our lifts in September. If it "
        "has gone, "
        "add £4,800 for a mobile crane day.",
    )
    bullets(
        prs,
        "Recent work",
        [
            "Stroud Valley Medical Centre: courtyard, paving and planting, handover June 2025",
            "Ashcombe House: walled courtyard garden, 2025",
            "Roof garden for a Cheltenham office, 2022",
        ],
    )
    prs.save(path)


def toolbox(path: Path):
    prs = deck("Dave Mitchell", "02/07/2025", "Toolbox talk – digging near underground services")
    title_slide(
        prs,
        "Toolbox talk: digging near underground services",
        "CAT and Genny refresher · 2 July 2025 · Dave Mitchell",
    )
    bullets(
        prs,
        "Why this matters",
        [
            "We have had two service strikes since 2023, both water pipes",
            "A cable strike can kill, and most are hit with hand tools or small diggers",
            "Every strike costs us time, repairs and the client's trust",
        ],
    )
    bullets(
        prs,
        "Before you dig",
        [
            "Get the utility plans from Priya: never dig without them",
            "Scan with the CAT in Power mode, then in Radio mode",
            "Use the Genny to trace anything the plans show but the CAT misses",
            "Mark services with yellow paint and write the depth if you know it",
        ],
    )
    bullets(
        prs,
        "Digging",
        [
            "Within 500 mm of a marked service, hand tools only – no digger, no pick",
            "Use a spade or shovel with insulated handles, not a fork",
            "Scan again every 300 mm as you go down",
            "Treat every service as live",
        ],
        notes="Tell the Minchinhampton story: in 2023 Aled found an unmarked water main at 400 mm with a "
        "fork. It "
        "was on no plan. That is why we scan again as we go down.",
    )
    bullets(
        prs,
        "If you hit something",
        [
            "Stop work and move everyone back at least 5 metres",
            "Phone Dave Mitchell straight away",
            "Smell gas? Call the gas emergency line and keep people and vehicles away",
            "Never try to repair or bury a damaged service",
        ],
    )
    bullets(
        prs,
        "Quick quiz",
        [
            "What two modes does the CAT have?",
            "How close can the digger get to a marked cable?",
            "Who do you phone first after a strike?",
        ],
        notes="Everyone signs the attendance sheet before they go.",
    )
    prs.save(path)


# --------------------------------------------------------------------------------------------- plain

README_TXT = """H&R SHARED DRIVE - WHERE THINGS GO
(Priya, updated January 2025)

Finance\\    budgets, rate cards, petty cash. Only Helen edits the budget workbook.
HR\\         staff handbook and the leave tracker. Holiday requests go to Priya by email, not on here.
Health and Safety\\   procedures (HS-xx) and toolbox talks. Print the current version, never an old one.
Meetings\\   minutes and the quarterly update slides.
Projects\\   one folder per job, named with the job code (P-2041 Medical Centre etc.).
Suppliers\\  supplier list with account numbers. Check the Approval status sheet before ordering.
Vans\\       van register (MOT, service, lease dates).

Site photos: put them in Projects\\<job code>\\Photos\\ the same day, named date_site
(e.g. 2025-03-04_ashcombe). Don't leave them on your phone.

Drawings live in Vectorworks on the studio server, not on this drive.

Please don't save anything on your desktop - it isn't backed up. This drive is
copied to the offsite backup every night at 23:00.
"""

INVOICES_CSV = """Invoice,Date,Client,Project,Net,VAT,Gross,Status
HR-1187,2025-07-31,Kestrel Homes,P-2046,11890.00,2378.00,14268.00,Paid
HR-1188,2025-08-29,Holly Lane Primary School,P-2044,22300.00,0.00,22300.00,Paid
HR-1189,2025-08-29,Mr N. Ashdown,P-2047,5960.00,1192.00,7152.00,Paid
HR-1190,2025-09-26,Kestrel Homes,P-2046,28400.00,5680.00,34080.00,Due
HR-1191,2025-09-30,Nailsworth Town Council,P-2049,2080.00,416.00,2496.00,Due
HR-1192,2025-09-30,Dr Olivia Marsh,P-2048,175.00,35.00,210.00,Due
"""


# --------------------------------------------------------------------------------------------- LibreOffice


def soffice(fmt: str, src: Path, outdir: Path):
    profile = Path(tempfile.gettempdir()) / "lo_profile_officegen"
    cmd = [
        "soffice",
        f"-env:UserInstallation=file://{profile}",
        "--headless",
        "--convert-to",
        fmt,
        "--outdir",
        str(outdir),
        str(src),
    ]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def main():
    if not shutil.which("soffice"):
        sys.exit(
            "LibreOffice (soffice) is needed for the .pdf, .doc, .xls and .ods files and the recalculation"
        )
    if DOCS.exists():
        shutil.rmtree(DOCS)
    for sub in [
        "Finance/Exports",
        "HR/Old policies",
        "Health and Safety",
        "Meetings",
        "Projects/P-2041 Medical Centre",
        "Projects/P-2044 Holly Lane Primary",
        "Projects/P-2046 Brimscombe Mill",
        "Projects/P-2048 Old Rectory",
        "Suppliers",
        "Vans",
    ]:
        (DOCS / sub).mkdir(parents=True, exist_ok=True)

    (DOCS / "README - shared drive.txt").write_text(README_TXT.replace("\n", "\r\n"), encoding="utf-8")
    (DOCS / "Finance/Exports/sales_invoices_2025-09-30.csv").write_text(INVOICES_CSV, encoding="utf-8")

    handbook(DOCS / "HR/Staff handbook 2025.docx")
    minutes_march(DOCS / "Meetings/2025-03-12 Staff meeting minutes.docx")
    minutes_june(DOCS / "Meetings/2025-06-18 Staff meeting minutes.docx")
    completion_report(DOCS / "Projects/P-2041 Medical Centre/Completion report DRAFT.docx", final=False)
    completion_report(DOCS / "Projects/P-2041 Medical Centre/Completion report FINAL.docx", final=True)
    proposal(DOCS / "Projects/P-2048 Old Rectory/Proposal - The Old Rectory, Painswick.docx")
    letter_school(DOCS / "Projects/P-2044 Holly Lane Primary/2025-04-02 Letter to Holly Lane Primary.docx")
    letter_kestrel(
        DOCS / "Projects/P-2046 Brimscombe Mill/2025-09-15 Letter to Kestrel Homes - variation 01.docx"
    )
    hs04(DOCS / "Health and Safety/HS-04 Safe use of the mini-digger.docx")

    rate_card(DOCS / "Finance/Rate card 2024.xlsx", 2024)
    rate_card(DOCS / "Finance/Rate card 2025.xlsx", 2025)
    tracker(DOCS / "Projects/Project tracker 2025.xlsx")
    suppliers(DOCS / "Suppliers/Supplier list.xlsx")

    q2_update(DOCS / "Meetings/Q2 2025 quarterly update.pptx")
    pitch(DOCS / "Projects/P-2046 Brimscombe Mill/Pitch - Kestrel Homes.pptx")
    toolbox(DOCS / "Health and Safety/Toolbox talk - underground services.pptx")

    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        out = tmp / "out"
        out.mkdir()
        # PDF exported from Word
        hs07(tmp / "HS-07 Lone working procedure v2.docx")
        soffice("pdf", tmp / "HS-07 Lone working procedure v2.docx", out)
        shutil.move(
            out / "HS-07 Lone working procedure v2.pdf",
            DOCS / "Health and Safety/HS-07 Lone working procedure v2.pdf",
        )
        # legacy .doc
        vehicle_policy_2018(tmp / "Company vehicle policy 2018.docx")
        soffice("doc", tmp / "Company vehicle policy 2018.docx", out)
        shutil.move(
            out / "Company vehicle policy 2018.doc", DOCS / "HR/Old policies/Company vehicle policy 2018.doc"
        )
        # legacy .xls
        van_register(tmp / "Van register.xlsx")
        soffice("xls", tmp / "Van register.xlsx", out)
        shutil.move(out / "Van register.xls", DOCS / "Vans/Van register.xls")
        # .ods
        petty_cash(tmp / "Petty cash 2025.xlsx")
        soffice("ods", tmp / "Petty cash 2025.xlsx", out)
        shutil.move(out / "Petty cash 2025.ods", DOCS / "Finance/Petty cash 2025.ods")
        # workbooks with formulas: recalculate so that they carry cached values
        budget(tmp / "Budget vs actual 2025.xlsx")
        leave(tmp / "Leave tracker 2025.xlsx")
        for name, dest in [("Budget vs actual 2025.xlsx", "Finance"), ("Leave tracker 2025.xlsx", "HR")]:
            soffice("xlsx", tmp / name, out)
            shutil.move(out / name, DOCS / dest / name)

    total = sum(p.stat().st_size for p in DOCS.rglob("*") if p.is_file())
    print(f"wrote {sum(1 for p in DOCS.rglob('*') if p.is_file())} files, {total / 1024:.0f} kB, to {DOCS}")


if __name__ == "__main__":
    main()
