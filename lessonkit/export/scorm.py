"""A lesson as a SCORM 1.2 package (`lessonkit export scorm`): `<slug>.scorm.zip` holding `imsmanifest.xml` and the
lesson's page (built for a learning platform: load/release.py Edition.lms, with the `scorm` component), with the
files the page links to beside it (its notebook).

The manifest follows the SCORM 1.2 Content Aggregation Model as Moodle, Canvas and Blackboard read it: the IMS
Content Packaging 1.1.2 namespace with ADL's extension (adlcp) and IMS Metadata 1.2.1 (imsmd); `<schema>ADL
SCORM</schema>` and `<schemaversion>1.2</schemaversion>`; one organization (the default) with one item whose
`identifierref` names one resource of `type="webcontent"` and `adlcp:scormtype="sco"`, its `href` the page, every
file of the package listed; the lesson's title, and its objectives as the description, in inline metadata. There is
no `adlcp:masteryscore`: the page judges passed or failed itself, once every self-check is answered (a platform that
knew a mastery score would judge a partly answered page failed). The schema files (.xsd) are not included: the
platforms named above do not need them.

The zip is the same bytes for the same page (fixed dates, fixed order)."""
from __future__ import annotations

import io
import zipfile
from xml.sax.saxutils import escape, quoteattr

from ..render.questions import LessonPackage

PAGE = "index.html"
MANIFEST = "imsmanifest.xml"
IMSCP = "http://www.imsproject.org/xsd/imscp_rootv1p1p2"
ADLCP = "http://www.adlnet.org/xsd/adlcp_rootv1p2"
IMSMD = "http://www.imsglobal.org/xsd/imsmd_rootv1p2p1"
XSI = "http://www.w3.org/2001/XMLSchema-instance"
SCHEMA_LOCATION = f"{IMSCP} imscp_rootv1p1p2.xsd {IMSMD} imsmd_rootv1p2p1.xsd {ADLCP} adlcp_rootv1p2.xsd"
ZIP_DATE = (1980, 1, 1, 0, 0, 0)  # the earliest a zip can say: the same bytes on every export


def package_name(slug: str) -> str:
    return f"{slug}.scorm.zip"


def manifest(package: LessonPackage, files: list[str]) -> str:
    """imsmanifest.xml for the lesson; `files`: the package's files beside it, the page first."""
    ident = f"lessonkit-{package.slug}"  # an XML ID: a slug may start with a digit, an ID may not
    lang = quoteattr(package.language)
    description = "\n".join(package.objectives)
    listed = "\n".join(f"      <file href={quoteattr(name)}/>" for name in files)
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="{ident}" version="1.0" xmlns="{IMSCP}" xmlns:adlcp="{ADLCP}" xmlns:imsmd="{IMSMD}"
          xmlns:xsi="{XSI}" xsi:schemaLocation="{SCHEMA_LOCATION}">
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>1.2</schemaversion>
    <imsmd:lom>
      <imsmd:general>
        <imsmd:title><imsmd:langstring xml:lang={lang}>{escape(package.title)}</imsmd:langstring></imsmd:title>
        <imsmd:language>{escape(package.language)}</imsmd:language>
        <imsmd:description><imsmd:langstring xml:lang={lang}>{escape(description)}</imsmd:langstring></imsmd:description>
      </imsmd:general>
    </imsmd:lom>
  </metadata>
  <organizations default="{ident}-org">
    <organization identifier="{ident}-org">
      <title>{escape(package.title)}</title>
      <item identifier="{ident}-item" identifierref="{ident}-sco" isvisible="true">
        <title>{escape(package.title)}</title>
      </item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="{ident}-sco" type="webcontent" adlcp:scormtype="sco" href="{PAGE}">
{listed}
    </resource>
  </resources>
</manifest>
"""


def package_zip(package: LessonPackage, page: bytes, beside: dict[str, bytes]) -> bytes:
    """The package: the manifest, the page as index.html, and `beside` (name → bytes: the files the page links to,
    which sit beside it in the package as beside the page in the site)."""
    files = {PAGE: page, **dict(sorted(beside.items()))}
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in {MANIFEST: manifest(package, list(files)).encode("utf-8"), **files}.items():
            info = zipfile.ZipInfo(name, ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, data)
    return buffer.getvalue()
