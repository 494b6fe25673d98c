"""Namespaces as objects: the lijing ontology (closed: a typo fails) and the data IRIs.

>>> LJ.Passage
rdflib.term.URIRef('https://w3id.org/lijing/ontology#Passage')
"""

from __future__ import annotations

from rdflib import Namespace, URIRef
from rdflib.namespace import DCTERMS, OWL, RDF, RDFS, SKOS, XSD, DefinedNamespace

ONTOLOGY = URIRef("https://w3id.org/lijing/ontology")
DEFAULT_BASE = "https://w3id.org/lijing/id/"
# data IRIs as the vocabularies in ontology/ write them (Minter.vocab moves them to a build's base)
DATA = Namespace(DEFAULT_BASE)
PERSON = Namespace(DEFAULT_BASE + "person/")
WORK = Namespace(DEFAULT_BASE + "work/")
RITE = Namespace(DEFAULT_BASE + "rite/")  # also the rites minted from titles the vocabulary lacks
CATEGORY = Namespace(DEFAULT_BASE + "category/")
RITE_SCHEME = URIRef(DEFAULT_BASE + "scheme/rites")
SHAPES = Namespace("https://w3id.org/lijing/shapes#")
CRM = Namespace("http://www.cidoc-crm.org/cidoc-crm/")
PROV = Namespace("http://www.w3.org/ns/prov#")
FOAF = Namespace("http://xmlns.com/foaf/0.1/")


class LJ(DefinedNamespace):
    """Terms of ontology/lijing.ttl; tests check this list against the file."""

    _fail = True
    Abstract: URIRef  # The Siku catalogue abstract (提要) printed before the book
    ActionType: URIRef  # A kind of ritual act (升, 揖, 拜, 取, 授 …)
    Chapter: URIRef  # A chapter of the Yili as this book presents it (士冠礼, 乡射礼 …), within...
    CitedWork: URIRef  # A book or chapter the commentary cites (说文, 燕义, 天官膳夫职 …)
    Commentary: URIRef  # One 【…】 block of commentary on a passage, record, section, chapter ...
    Commentator: URIRef  # A person whose words the book quotes or reports, or the author himself
    Gloss: URIRef  # An explanation of a word stated in an opinion (比合也, 二升曰觚)
    Juan: URIRef  # A fascicle of the book, opened and closed by 礼经本义卷N
    Mention: URIRef  # One occurrence of a lexicon concept in a text unit, with the charac...
    NoiseSpan: URIRef  # A stretch of a source file that is not the book (page header, web f...
    Opinion: URIRef  # One attributed statement inside a commentary block: a quoted commen...
    Passage: URIRef  # A run of the classic (经文) as the author divides it, before its comm...
    Place: URIRef  # A place in the hall, court or gate where acts happen (阼阶, 西阶, 堂西, 中...
    Position: URIRef  # A spot relative to a place, a ritual object or a role (楅南, 尸东, 阼阶上)
    Preface: URIRef  # Commentary on a whole chapter (after its title) or on the work (fro...
    Record: URIRef  # A piece of the appended Records (记) that the author distributes aft...
    Rite: URIRef  # A rite as a kind of ceremony (the district archery contest, the cap...
    RiteCategory: (
        URIRef  # One of the five categories of rites (嘉 宾 军 凶 吉) by which the author...
    )
    RitualAct: URIRef  # One act the classic prescribes: who does what, with which object, w...
    RitualObject: URIRef  # A vessel, implement, garment, gift or offering used in a rite (觯, 楅...
    Role: URIRef  # A participant or officiant as the classic names them (主人, 宾, 司射, 释获...
    Section: URIRef  # A step of the rite: the passages the author closes with a heading 右...
    SourceDocument: URIRef  # A file the graph was built from, with its layout and checksum
    SourceNote: (
        URIRef  # A short note saying where a piece of text comes from (【此条朱子以戴记补】)
    )
    Spot: URIRef  # A Place or a Position: where an act happens or a thing is set
    TextUnit: URIRef  # Any stretch of the book the graph describes: juan, chapter, section...
    TextualNote: URIRef  # A short note on the wording of the text: a variant reading, an erro...
    Witness: URIRef  # One source file's reading of a text unit: its characters there and ...
    Work: URIRef  # The book as a whole, 礼经本义 in 17 juan
    actionType: URIRef  # What kind of act it is
    agent: URIRef  # The role who performs the act
    agentNote: URIRef  # Why an act has no lj:agent (subject elided, performer not named)
    ambiguous: URIRef  # True for a lexicon term that is also an ordinary word and needs con...
    appearsIn: URIRef  # A rite whose chapter names this concept (curated, not extracted)
    arity: URIRef  # Whether an action type takes an object (transitive) or not (intrans...
    artName: URIRef  # Art name (号)
    attribution: URIRef  # The words that attribute the opinion (郝仲舆曰, 愚按), as written
    baseEdition: URIRef  # The printed edition a source file transcribes, as its repository codes...
    birthYear: URIRef  # Year of birth (negative before the common era)
    category: URIRef  # The category of rites a rite belongs to
    charEnd: URIRef  # Offset just after the last character of a span (see lj:charStart)
    charStart: URIRef  # Offset, in Unicode code points, of the first character of a span: i...
    cites: URIRef  # A work the opinion cites
    commentator: URIRef  # Whose opinion it is
    commentsOn: URIRef  # The unit a commentary block is about
    condition: URIRef  # The condition under which an act happens (若 … 则 …), as text
    courtesyName: URIRef  # Courtesy name (字)
    deathYear: URIRef  # Year of death (negative before the common era)
    describesRite: URIRef  # The rite a chapter describes
    destination: URIRef  # Where a movement goes to (适X, 就X)
    direction: URIRef  # Which side of its lj:relativeTo a position is (南, 东南, 上, 内 …)
    disputes: URIRef  # A commentator or opinion this opinion rejects (误, 非也, 失之 …)
    dynasty: URIRef  # Dynasty the person lived under
    endorses: URIRef  # A commentator or opinion this opinion accepts (是也, 得之, 当从 …)
    evidence: URIRef  # The text unit (or act) a fact was extracted from
    evidenceText: URIRef  # The characters of the evidence span
    facing: URIRef  # The direction the agent faces (北, 南, 东, 西, 东北 …)
    fragment: URIRef  # True for a unit whose start no witness in the build contains
    glossDefinition: URIRef  # The explanation given
    glossTerm: URIRef  # The word explained
    handles: URIRef  # A role handles an object in some act (derived from the acts)
    hasGloss: URIRef  # A gloss the opinion states
    hasOpinion: URIRef  # An attributed statement contained in a commentary block
    inSection: URIRef  # The section whose passages prescribe the act
    inUnit: URIRef  # The unit whose lj:text a mention, opinion span or act evidence is c...
    involves: URIRef  # A role acts in the rite (derived from the acts)
    isAuthor: URIRef  # True for the author of the book (蔡德晋)
    juanLabel: URIRef  # The juan a source file says it holds, as its header names it (卷一)
    keyTerm: URIRef  # A word characteristic of a rite's chapter, used to recognise a frag...
    foundInText: URIRef  # True of a rite minted from a chapter title the vocabulary lacks
    layout: URIRef  # The layout reader that read a source document (tagged, paged, inden...
    line: URIRef  # 1-based line of the source file where a witness or noise span begins
    location: URIRef  # Where the act happens (于X, 在X)
    lostRite: URIRef  # True for the eight 'lost rites' (逸礼) appended in juan 17
    matchedText: URIRef  # The original characters a mention matched
    mentionOf: URIRef  # The concept a mention names
    mentions: URIRef  # A lexicon concept a passage, record or opinion names
    movesTo: URIRef  # A role moves to a place in some act (derived from the acts)
    nextAct: URIRef  # The act that follows in the same section
    noiseKind: URIRef  # What a noise span is (page header, web footer, catalogue tag)
    normalizedText: URIRef  # The text with variant characters folded and traditional forms simpl...
    objectCategory: URIRef  # The kind of ritual object (vessel, archery gear, dress …)
    order: URIRef  # 1-based position of a unit among the children of its parent, in rea...
    page: URIRef  # The print page a unit stands on, as edition-juan-leaf-side (WYG 001...
    partial: URIRef  # True for a witness whose file holds only part of the unit (a fragme...
    patient: URIRef  # The object or role acted on or with
    placement: URIRef  # How the juan or chapter of a fragment that starts mid-text was foun...
    readingBreak: URIRef  # Offset in lj:text after which the text marks a phrase break with 【句】
    relativeTo: URIRef  # What a position is taken from: a place, a ritual object or a role
    repeats: URIRef  # The act or section an act repeats (如初, 亦如之, 如升射)
    reports: URIRef  # A commentator whose view the opinion reports (敖君善谓 …) without quoti...
    setAt: URIRef  # Where the act sets down the things it handles (设X于Y, 奠X于Y)
    setsDown: URIRef  # A thing the act sets down at its lj:setAt: an object it names (lj:patie...
    sha256: URIRef  # SHA-256 checksum of a source file's bytes
    slug: URIRef  # The short ASCII name used in IRIs
    source: URIRef  # Where a movement starts from (自X, 由X)
    sourceFile: URIRef  # The file a witness or noise span is in
    standsAt: URIRef  # A role is located at a place in some act (derived from the acts)
    stepLabel: URIRef  # The sub-step a commentary names for its passage with 此X也
    text: URIRef  # The text in its original characters as the chosen witness reads it ...
    textId: URIRef  # The identifier a text repository gives the work a source file trans...
    title: URIRef  # The name the text gives a unit: a chapter title, a section name fro...
    voice: URIRef  # How the opinion is introduced: author (unattributed), note (按, 愚按),...
    witness: URIRef  # A source file's reading of this unit

    backReference: URIRef  # The words by which an act repeats an earlier one (如初, 亦如之)
    commandedBy: URIRef  # The command whose addressee performs this act

    # ritual space: the ground plan and agents' positions
    AgentPosition: URIRef  # Where one role (or one group) stands when an act is done
    PlanPlacement: URIRef  # Where a plan variant puts a place or a standing object
    PlanVariant: URIRef  # A ground plan, or a setting a rite adds to the standard plan
    agentPosition: URIRef  # Where an agent of the act stands when it is done
    atPlace: URIRef  # The place the agent stands at
    inVariant: URIRef  # The plan variant a placement belongs to
    offPlan: URIRef  # Why a place has no single spot on the ground plan
    placed: URIRef  # The place or standing object a placement puts on the plan
    planHeight: URIRef  # North–south extent on the plan (nominal 尺)
    planVariant: URIRef  # A plan the rite is drawn on
    planWidth: URIRef  # East–west extent on the plan (nominal 尺)
    planX: URIRef  # East–west coordinate on the plan, eastwards from the middle of the 堂廉
    planY: URIRef  # North–south coordinate on the plan, northwards from the 堂廉
    positionBasis: URIRef  # The words the position was inferred from
    positionFrom: URIRef  # The act whose words put the agent where he stands
    positionOf: URIRef  # The role (or group) that stands there

    # commentary (voices, glosses, citations, judgements, readings)
    Citation: URIRef  # One place where an opinion cites a work (说文云 …)
    Judgement: URIRef  # The explicit words by which an opinion accepts or rejects a view
    ReadingNote: URIRef  # A statement inside an opinion about the wording of the text
    edition: URIRef  # The edition a note names (郑本, 今本)
    glossOf: URIRef  # The lexicon concept the glossed term names
    glossPattern: URIRef  # The wording by which the gloss is stated (A犹B也 …)
    hasCitation: URIRef  # A citation the opinion makes
    hasJudgement: URIRef  # A judgement the opinion makes
    hasReadingNote: URIRef  # A statement on the wording the opinion makes
    judges: URIRef  # The commentator or the opinion a judgement is about
    locus: URIRef  # The phrase of the text the reading stands in
    noteKind: URIRef  # edition-error, variant, emendation or interpolation
    proposedReading: URIRef  # The reading a note puts in place of the text's
    quoteStart: URIRef  # Offset of the quoted words in the block's text
    quotedText: URIRef  # The words quoted from the cited work
    reading: URIRef  # The words of this text a note is about
    reportedText: URIRef  # The words of the view an opinion reports
    stance: URIRef  # endorses or disputes
    termEnd: URIRef  # Offset just after the glossed term in the block's text
    termStart: URIRef  # Offset of the glossed term in the block's text
    variantReading: URIRef  # The reading another edition has

    # works of the tradition (仪礼注疏, 仪礼集说 …) read beside the book
    blockKind: URIRef  # What a commentary block of a tradition work is (zhu, yinyi, shu …)
    citedAs: URIRef  # The cited-work concept that names this work
    quotes: URIRef  # The commentator an opinion of a tradition work quotes (注曰 → 郑玄)

    # the tradition: the classic across works, quotations traced to their sources
    ClassicVariant: URIRef  # Where two works read the classic differently beyond variants
    Parallel: URIRef  # One overlap of the classic between passages of two works
    Quotation: URIRef  # An opinion's quoted words traced to their source block
    fidelity: URIRef  # verbatim, abridged or paraphrase
    fromCharEnd: URIRef  # Offset just after the stretch in the first side's passage
    fromCharStart: URIRef  # Offset of the stretch in the first side's passage
    fromPassage: URIRef  # The first side of a parallel
    fromText: URIRef  # The first side's characters at a variant
    hasParallel: URIRef  # An lj:Parallel the passage takes part in
    hasQuotation: URIRef  # A quotation the opinion makes
    hasVariant: URIRef  # A textual variant inside a parallel
    parallel: URIRef  # A passage of another work whose 经文 overlaps this one's
    quotedCharEnd: URIRef  # Offset just after the quoted span in the opinion's text
    quotedCharStart: URIRef  # Offset of the quoted span in the opinion's text
    quotedFrom: URIRef  # The source block the quoted words come from
    quotedWords: URIRef  # The quoted span as the book writes it
    omittedText: URIRef  # Source words a quotation leaves out
    similarity: URIRef  # How alike two aligned stretches are, 0–1
    sourceCharEnd: URIRef  # Offset just after lj:sourceText in the source block
    sourceCharStart: URIRef  # Offset of lj:sourceText in the source block
    sourceText: URIRef  # The source's words the quotation used
    toCharEnd: URIRef  # Offset just after the stretch in the other side's passage
    toCharStart: URIRef  # Offset of the stretch in the other side's passage
    toPassage: URIRef  # The other side of a parallel
    toText: URIRef  # The other side's characters at a variant

    _NS = Namespace("https://w3id.org/lijing/ontology#")


def _as_attributes(*namespaces: type[DefinedNamespace]) -> None:
    """Store every term as a plain class attribute. rdflib resolves ``RDF.type``, ``LJ.Mention``
    … through its metaclass's ``__getattr__`` on each access (2–4 µs; the build makes a few
    for every one of its millions of quads); the attribute holds the very URIRef it returns.
    An unknown name still reaches ``__getattr__`` and fails (``_fail``)."""
    for ns in namespaces:
        for name in ns.__annotations__:
            if not name.startswith("_"):
                type.__setattr__(ns, name, ns[name])


_as_attributes(LJ, RDF, RDFS, DCTERMS, SKOS, XSD, OWL)
