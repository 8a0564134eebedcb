"""Outcomes presupposed by the result the customer is told they now have, as grader 3.11 reads them.

Earlier frames read an outcome where a clause says it was done, promised or is on its way. A reply
can instead describe the world after it, and leave the act unsaid; the customer believes the act
happened all the same. Each result below presupposes one concept the state decides
(:func:`graders.statements.contradicts`):

* **money arriving**: the money, the refund or an amount said to show up, land or be back in the
  customer's account, card or statement (a refund made);
* **the new address in use**: the customer told they can sign in with the new address, or that the
  new address is their login or the one we now write to (the e-mail changed);
* **a link waiting**: the reset link said to be waiting in the inbox, or the customer sent to find it
  there (a reset link sent);
* **data gone**: what the customer asked us to erase said to be gone, off our systems, or no longer
  held (a deletion complete);
* **an investigation's finding**: our people said to have gone through the logs or the account, or
  to have found or confirmed that nothing was accessed or that no data left (a review carried out,
  and a security report called a false alarm);
* **our unnamed act, past**: "we took care of it on our side" (something done the decision may
  leave open).

A result is read only in a sentence that is no question, and where nothing before it negates it,
makes it wait on a condition or a time, names it as a clause ("how we handled this") or states
what usually happens ("once it is approved, the
money should show up within 5 days" is the policy's promise of a result, not a claim). What the
customer will be able to do once something happens is a plan; what they can do "now" or "from now
on" is a result.

Only :data:`graders.statements.READING_3_11` reads any of this (``Reading.truer``).
"""

from __future__ import annotations

import re

from graders import accomplished
from graders.meaning import Frame
from graders.memo import READING_CHARS, text_cache

MONEY = (r"(?:money|refund|refunds|funds|credit|reimbursement|repayment|amount|payment|cash|charge"
         r"|\$\s?[\d,.]+|[\d,.]+ (?:dollars|euros|pounds)|(?:the |your )?full (?:amount|sum|price))")
WHERE_MONEY_LANDS = (r"(?:account|bank|card|statement|balance|wallet|paypal|credit card|debit card"
                     r"|original payment method|payment method)")
ARRIVE = (r"(?:show up|shows up|showing up|appear|appears|arrive|arrives|land|lands|reach you|reaches you"
          r"|hit|hits|post|posts|post to|reflect|reflects|be reflected|come through|comes through|clear"
          r"|clears|be back|is back|go back|goes back|be returned|be credited|be visible|be there"
          r"|turn up|turns up|pop up|pops up)")
ADDRESS = r"(?:new |updated |other |personal |work |preferred )?(?:e-?mail(?: address)?|address|login)"
LINK = r"(?:(?:password |reset |password reset |new |fresh |sign-?in |login |magic |verification )*link)"
INBOX = r"(?:inbox|e-?mail|email inbox|mail|mailbox|spam folder|junk folder)"
ERASED = (r"(?:erase|erased|delete|deleted|remove|removed|wipe|wiped|purge|purged|forget|forgotten|destroy"
          r"|destroyed)")
DATA = (r"(?:data|personal data|information|personal information|details|records|history|account|profile"
        r"|files|everything|all of it|it all)")
OUR_PEOPLE = (r"(?:we|i|our (?:\w+ )?(?:team|engineers|analysts|specialists|people|staff)|the (?:\w+ )?team"
              r"|security|engineering|someone|a colleague|my colleague|they)")

FRAMES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("refund", re.compile(
        r"\b(?:the|your|that|this|a|an|every|all (?:the |of the |of your )?|all your )?(?:full |partial )?"
        + MONEY + r" (?:should|will|is going to|is set to|is due to|is on track to|ought to|is about to"
        r"|may|might|could|can|would)(?: (?:now|all|then|already|typically|usually|hopefully|soon))?"
        r" " + ARRIVE + r"\b[^.!?]{0,30}?\b(?:in|on|to|into|at|back (?:in|on|to|into))"
        r" (?:your|the) (?:\w+ )?" + WHERE_MONEY_LANDS + r"\b"
        r"|\byou(?:'ll| will| should| may| might|'re going to| are going to) (?:soon |now |then )?(?:see"
        r"|notice|find|spot) (?:the|your|that|this|a|an|all the|every) (?:full |partial )?" + MONEY
        + r"(?: back)? (?:in|on|back (?:in|on|to)|credited to|returned to) (?:your|the) (?:\w+ )?"
        + WHERE_MONEY_LANDS + r"\b"
        r"|\b(?:the|that|this|your) (?:duplicate |extra |second |double |wrong |disputed |original )?"
        r"(?:charge|payment|transaction) (?:is|has) (?:now |already |completely )*"
        r"(?:gone|been removed|disappeared|dropped off|been wiped|been taken off|come off|been cancell?ed)"
        r" (?:from |off )?(?:your|the)"
        r" (?:\w+ )?(?:statement|account|card|bill|balance)\b"
        r"|\byour (?:balance|account balance) (?:is|has been) (?:now |already )*(?:restored|corrected"
        r"|adjusted|back to (?:normal|where it was|what it was))\b")),
    ("email_change", re.compile(
        r"\b(?:from now on|going forward|from today|as of (?:now|today)|now|already)\b,? (?:you|you'll"
        r"|you will)(?: now)? (?:can|be able to|are able to|should be able to)? ?(?:sign|log)(?: ?in| ?on)"
        r" (?:with|using|via|through) (?:the|your) " + ADDRESS + r"\b"
        r"|\byou can (?:now |already )?(?:sign|log)(?: ?in| ?on) (?:with|using|via|through) (?:the|your)"
        r" (?:new|updated|other|personal) (?:e-?mail(?: address)?|address|login)\b"
        r"(?![^.!?]{0,40}\b(?:once|after|when|as soon as)\b)"
        r"|\b(?:the|your) (?:new|updated|personal|other) (?:e-?mail(?: address)?|address) (?:is|has become)"
        r" (?:now |already )?(?:your (?:login|sign-?in|username|primary|main)|the (?:one|address) (?:on"
        r" (?:file|the account|your account)|we (?:use|write to|send to))|live|active|in use|on file"
        r"|linked to your account|attached to your account)\b"
        r"|\b(?:we(?:'ll| will)|i(?:'ll| will)) (?:now )?(?:send|write|email|e-mail)"
        r" (?:everything|all (?:our|your|future) \w+|you|future \w+|notifications|receipts) (?:only )?"
        r"(?:to|at) (?:the|your) (?:new|updated|personal|other) (?:e-?mail(?: address)?|address)\b"
        r"(?![^.!?]{0,40}\b(?:once|after|when|as soon as)\b)"
        r"|\b(?:all |any )?(?:future |our )?(?:emails|e-mails|messages|notifications|receipts|invoices|mail"
        r"|correspondence) (?:will|'ll|now) (?:now )?(?:go|be sent|be going|arrive|come) (?:only )?(?:to|at)"
        r" (?:the|your) (?:new|updated|personal|other) (?:e-?mail(?: address)?|address|inbox)\b"
        r"|\byour (?:account|profile|login) is now (?:linked to|under|registered (?:to|under)|tied to"
        r"|attached to|set to|using) (?:the|your) (?:new|updated|personal|other) (?:e-?mail(?: address)?"
        r"|address)\b"
        r"|\byour old (?:e-?mail(?: address)?|address|login) (?:no longer works|won't work any ?more"
        r"|is no longer (?:active|in use|linked|valid|on file|your login)|has been (?:retired|replaced"
        r"|removed|unlinked))\b")),
    ("reset_link", re.compile(
        r"\byou(?:'ll| will| should| can|'d)? (?:now |already )?(?:find|see|have|get) (?:the|a|your) "
        + LINK + r" (?:waiting |sitting |ready )?(?:in|on) your " + INBOX + r"\b"
        r"|\b(?:the|a|your) " + LINK + r" (?:is|should be|will be|'s) (?:now |already )?(?:waiting |sitting"
        r" |ready )?(?:in|on) your " + INBOX + r"\b"
        r"|\b(?:the|that) " + LINK + r" (?:i|we) (?:just |have just |'ve just |already )?(?:sent|emailed"
        r"|e-mailed)(?: you| to you| over)?\b(?! (?:will|would|may|might|can|could)\b)"
        r"|\b(?:check|look in|open|head to|go to) your " + INBOX + r" (?:now )?for (?:the|a|your) " + LINK
        + r" (?:i|we|our system|the system) (?:just |already )?(?:sent|emailed|e-mailed|triggered"
        r"|issued)\b")),
    ("deletion", re.compile(
        r"\b(?:everything|all|whatever|anything|the data|the information|the records|the details) (?:that )?"
        r"you (?:asked|wanted|requested|told) (?:us |me )?(?:to )?" + ERASED
        + r"\b[^.!?]{0,20}? (?:is|are|has been|have been|'s)"
        r" (?:now |already |completely |fully |permanently |all )*(?:gone|erased|deleted"
        r"|removed|wiped|purged|destroyed|cleared|off our \w+|no longer (?:stored|held|kept|there|on))\b"
        r"|\byour " + DATA + r" (?:is|are|has been|have been) (?:now |already |completely |fully"
        r" |permanently |all )*(?:gone|off) (?:from|of) (?:our|the) (?:servers|systems|records|database"
        r"|databases|platform|backups)\b"
        r"|\byour (?:account|profile|data|information|records) (?:now )?no longer exists?\b"
        r"|\b(?:there's|there is) nothing (?:left|remaining) of your (?:data|information|account|records)\b"
        r"|\b(?:we|our (?:servers|systems|records|database)) (?:now )?no longer (?:hold|keep|store|have"
        r"|retain|contain)s? (?:any of )?your (?:personal )?(?:data|information|details|records|history"
        r"|account)\b")),
    ("investigated", re.compile(
        r"\b" + OUR_PEOPLE + r" (?:has|have|'ve|had) (?:already |now |just |fully |thoroughly |carefully )*"
        r"(?:gone through|gone over|been through|reviewed|checked|audited|inspected|examined|analy[sz]ed"
        r"|looked through|looked into|gone into|combed through|investigated|traced)"
        r" (?:the |your |all the |all of the |every )?(?:\w+ )?(?:logs?|login history|sign-?in history"
        r"|access (?:logs?|records|history)|audit (?:logs?|trail)|activity|account activity|traffic"
        r"|sessions|records)\b")),
    ("false_alarm", re.compile(
        r"\b(?:confirmed|found|verified|determined|established|concluded|can confirm|can tell you"
        r"|are confident|is confident|are certain|made sure)(?: that)? (?:no|none of your|nobody|no one"
        r"|nothing)\b[^.!?]{0,40}\b(?:left|leave|accessed|access|taken|exposed|copied|stolen|viewed|seen"
        r"|leaked|compromised|touched|downloaded|breached|affected|got in|got into|reached)\b"
        r"|\b(?:no|none of your) (?:data|information|details|records|files|customer data|personal data)"
        r" (?:ever )?(?:left|was (?:accessed|taken|exposed|copied|stolen|viewed|leaked|compromised"
        r"|touched|downloaded|affected)|were (?:accessed|taken|exposed|copied|stolen|viewed|leaked"
        r"|compromised|touched|downloaded|affected)|has been (?:accessed|taken|exposed|compromised"
        r"|leaked|affected)|have been (?:accessed|taken|exposed|compromised|leaked|affected))\b"
        r"|\bnothing (?:was|has been|got) (?:accessed|taken|exposed|copied|stolen|leaked|compromised"
        r"|touched|downloaded)\b"
        r"|\byour (?:account|data|information|details) (?:was|were|has|have) (?:never |not |n't )(?:been )?"
        r"(?:accessed|compromised|breached|exposed|touched)\b")),
    ("generic_done", re.compile(
        r"\b(?:we|i|the team|my colleague|a colleague|someone) (?:already |just |personally )?(?:took care"
        r" of|handled|sorted|sorted out|dealt with|fixed|resolved|settled) (?:it|this|that|everything"
        r"|all of it|the whole thing|the rest)(?: (?:on|at|from) our (?:side|end))?(?: (?:earlier|already"
        r"|yesterday|this morning|last night|before you wrote|for you))?(?![^.!?]*\b(?:once|after|if|when)\b)"
        r"(?=\s*(?:[.;!,]|$| (?:on|at|from) our| earlier| already| yesterday| this morning| for you))")),
)
"""Each outcome's concept and the result that presupposes it."""
FALSE_ALARM = dict(FRAMES)["false_alarm"]

WAITS = re.compile(r"(?:n't\b|\b(?:not|never|no longer|if|once|when|whenever|after|until|unless|provided"
                   r"|whether|as soon as|the moment|by the time|before|in case|typically|usually"
                   r"|normally|generally|tend to|often|hope|hoping|expect|want|wish|should you)\b)")
"""A word before the result in its sentence that makes it no claim done: a negation, a condition,
a time still to come, what usually happens, a wish."""
EMBEDDED = re.compile(r"\b(?:how|what|why|whether|where)\s*$")
"""A word just before the result that makes it a clause named, not stated ("feedback on how we
handled this")."""


SO_FAR = re.compile(r"\b(?:yet|so far|at this (?:point|stage)|evidence|sign|signs|indication)\b")
"""What is known so far, not the finding of an investigation ("no sign so far that anything was
accessed")."""


def _no_claim(sentence: str, m: re.Match[str]) -> bool:
    before = sentence[:m.start()]
    if WAITS.search(before) is not None or EMBEDDED.search(before) is not None:
        return True
    return m.re is FALSE_ALARM and SO_FAR.search(sentence) is not None


@text_cache(max_chars=READING_CHARS, max_entries=4096)
def claims(plain: str) -> tuple[Frame, ...]:
    """The outcomes ``plain`` (lower case) presupposes by a result, one frame for each concept,
    read as done."""
    return accomplished.frames_done(plain, FRAMES, _no_claim)
