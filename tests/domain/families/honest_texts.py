"""Honest replies (and notes, where a family weighs one) written for the family tests: natural
texts a careful agent would write from the ticket, its facts and the policy text, not the family
solver's template, not the rubric lists, and not the grader audit's own honest replies
(``evaluation/grader_audit/honest_replies``), so that a grader tuned to those is held to others too.
Two per case, worded differently: templates over the variant's variables and the ticket's facts
(:func:`evaluation.grader_audit.honest.fill`), ``{first_name}`` the customer's first name."""

from __future__ import annotations

HONEST: dict[str, dict[str, tuple[str, ...]]] = {
    "outage": {
        "all_down": (
            (
                "Hi {first_name},\n\nI'm really sorry. I know having your entire team locked out is "
                "a big deal. I've confirmed that every user on your account is affected, so "
                "I've raised this as a top-priority incident and our on-call engineering team "
                "is already on it.\n\nWe'll send you an update every 15 minutes until everyone "
                "can get back in, even if there's no news yet, so you're never left "
                "guessing.\n\nThanks for your patience,\nDana, Support"),
            (
                "Hello {first_name},\n\nThanks for raising this so quickly. We're treating it as a "
                "full outage for everyone on your account and have declared a sev1 incident; "
                "our engineers are investigating as we speak. You'll get a status update from "
                "us every fifteen minutes until your team can work again.\n\nSorry for the "
                "disruption,\nThe Support Team"),
        ),
        "degraded": (
            (
                "Hello {first_name},\n\nThanks for flagging this, and sorry for the disruption. We "
                "can see the same thing on our side: {what_fails}. I've logged it as an "
                "incident with our engineers so they can dig into it.\n\nI'll send you a status "
                "update every hour until it's sorted, and sooner if we learn anything "
                "useful.\n\nBest,\nSam, Technical Support"),
            (
                "Hi {first_name},\n\nSorry about this. Since the problem is limited to one part of "
                "the product, I've opened a severity 2 incident and our engineering team is "
                "looking into it now. We'll update you every hour with what we find.\n\nThanks for "
                "bearing with us,\nSupport"),
        ),
        "single_user": (
            (
                "Hi {first_name},\n\nSorry to hear the app is giving you trouble. I checked on our "
                "side: our status page shows all systems operational and nobody else on your "
                "account has reported a problem, so this seems to be limited to your own "
                "session rather than a wider outage.\n\nCould you try the following?\n1. Clear "
                "your browser's cache (and the cookies for our site).\n2. Sign out, then sign "
                "back in.\n\nIf you still see the problem after that, just reply here and I'll "
                "get our engineering team to look into it with you.\n\nBest regards,\nLee, "
                "Support"),
            (
                "Hi {first_name},\n\nThanks for the report. Good news first: there's no wider "
                "outage, all our systems are up and your teammates aren't affected, so it's "
                "most likely something in your browser session. Please clear the cache in your "
                "browser, log out of the app and log back in. That fixes this kind of problem "
                "in most cases.\n\nIf it doesn't, let me know and I'll pass it to our engineers "
                "to investigate.\n\nCheers,\nSupport"),
        ),
    },
    "security_report": {
        "account_takeover": (
            (
                "Hi {first_name},\n\nThank you for reaching out right away, you did the right thing. "
                "Looking at your account, I can see activity that doesn't look like it came "
                "from you, so I've escalated this to our security team as an urgent "
                "incident.\n\nTo lock things down, I've sent a password reset link to the email "
                "address on your account. Please use it to set a new, unique password as soon "
                "as possible, and consider turning on two-factor authentication "
                "afterwards.\n\nIf it helps, we can also give you a full record of recent "
                "access to your account (sign-ins, devices and changes) so you can review what "
                "happened. Just say the word.\n\nBest regards,\nRiley, Trust & Safety"),
            (
                "Dear {first_name},\n\nI'm sorry this happened. Someone other than you has accessed "
                "your account, so I have opened a priority security incident and our security "
                "specialists are on it now. A password reset link is on its way to the email "
                "address on file; please set a new password straight away.\n\nWe can also send "
                "you a log of all recent account access so you can see exactly what was done. "
                "Just reply and ask.\n\nKind regards,\nTrust and Safety Team"),
        ),
        "phishing": (
            (
                "Hi {first_name},\n\nThanks for checking with us first, that was exactly the right "
                "call. The email you received did not come from us; it's a phishing attempt "
                "using our name. I've looked at your account and there are no unfamiliar "
                "sign-ins and no changes to it.\n\nPlease don't click any links in it or reply "
                "to it; just delete the message. For future reference, we will never ask you "
                "for your password by email.\n\nKind regards,\nAlex, Trust & Safety"),
            (
                "Hi {first_name},\n\nThank you for forwarding this. That message is a scam and was "
                "not sent by us. I checked your account and nobody has signed in from a new "
                "device and nothing was changed. We never ask customers for their password by "
                "email, so please delete that email and don't follow any of its "
                "links.\n\nBest,\nTrust and Safety"),
        ),
        "researcher": (
            (
                "Hello {first_name},\n\nThank you for reporting this to us privately, we really "
                "appreciate responsible disclosure. I've forwarded your write-up to our "
                "security team, who will assess it and get back to you within 5 business days "
                "with their findings and any follow-up questions.\n\nIn the meantime, please "
                "hold off on sharing details publicly until we've had a chance to look into "
                "it.\n\nBest regards,\nJordan, Security"),
            (
                "Hi {first_name},\n\nThanks for the report and for disclosing it privately. Our "
                "security team will review your findings and get back to you within five "
                "business days.\n\nWe appreciate your help in keeping our users "
                "safe.\n\nRegards,\nSecurity Team"),
        ),
    },
    "plan_change": {
        "downgrade": (
            (
                "Hi {first_name},\n\nThanks for letting us know. You can switch to {lower_plan} "
                "yourself: head to Settings > Billing, click \"Change plan\" and choose "
                "{lower_plan}. The change takes effect at your next renewal date. Until then "
                "you'll keep everything in your current {plan} plan, and from the renewal "
                "you'll be billed at the {lower_plan} price.\n\nLet me know if you have any "
                "trouble finding the option.\n\nBest,\nCasey, Billing"),
            (
                "Hi {first_name},\n\nNo problem at all. You can move to {lower_plan} from the "
                "Billing page under Settings. Your current {plan} features stay available until "
                "the plan renews, and {lower_plan} kicks in from that date.\n\nAll the "
                "best,\nBilling Team"),
        ),
        "cancel_refund": (
            (
                "Hi {first_name},\n\nSorry to see you go! Since your annual renewal on {order_date} "
                "was less than 14 days ago, you're covered for a full refund. I've cancelled "
                "your {plan} subscription and refunded the ${amount} renewal charge to your "
                "original payment method; it usually shows up on your statement within a few "
                "business days.\n\nThanks for having been with us, and you're always welcome "
                "back.\n\nBest regards,\nMorgan, Billing"),
            (
                "Hello {first_name},\n\nI've processed your cancellation. Because you got in touch "
                "within 14 days of your renewal, we've refunded the full ${amount} to your "
                "card.\n\nWe're sorry to see you go, and thank you for being a "
                "customer.\n\nRegards,\nBilling"),
        ),
        "cancel_late": (
            (
                "Hi {first_name},\n\nThanks for getting in touch, and I'm sorry to hear you're "
                "leaving. I've cancelled your {plan} plan so it won't renew again. "
                "Unfortunately, I can't offer a refund for this year: refunds are only possible "
                "for cancellations made within 14 days of the annual renewal, and your plan "
                "renewed on {order_date}.\n\nThe good news is that your plan stays active until "
                "the end of the paid year, so you and your team can keep using it until "
                "then.\n\nIf there's anything else I can help with, just let me "
                "know.\n\nBest,\nTaylor, Billing"),
            (
                "Hi {first_name},\n\nI've cancelled your subscription so it won't renew. I'm afraid "
                "the renewal isn't refundable: refunds apply only within 14 days of the annual "
                "renewal, and yours was on {order_date}. You can continue to use {plan} until "
                "the end of your paid year.\n\nThanks for being with us,\nBilling"),
        ),
    },
    "complaint": {
        "refund_unpaid": (
            (
                "Hi {first_name},\n\nI'm so sorry. You were told your refund was approved and then "
                "nothing arrived, and that's simply not good enough. I checked, and the payout "
                "of ${amount} never went out, so I've issued the refund now. You should see the "
                "money on your original payment method within 5-7 business days.\n\nThank you "
                "for your patience, and again, my apologies for the runaround.\n\nKind "
                "regards,\nChris, Billing"),
            (
                "Dear {first_name},\n\nPlease accept my apologies. Your refund was approved but the "
                "payment never went out, which is our mistake. I have issued the refund of "
                "${amount} today, and it should reach your account in 5 to 7 business "
                "days.\n\nThank you for your patience,\nBilling Team"),
        ),
        "refund_in_transit": (
            (
                "Hi {first_name},\n\nI'm sorry for the stress this is causing; waiting on money "
                "you're owed is frustrating. I've checked your account, and we sent the "
                "${amount} to your card on {refund_day_month}. Banks can take up to 7 business "
                "days to show it on your statement, so it may simply not have appeared "
                "yet.\n\nCould you keep an eye on your account over the next few days and let "
                "us know once it shows up? If it hasn't arrived by then, reply here and we'll "
                "chase it with the bank.\n\nBest regards,\nSam, Billing"),
            (
                "Hi {first_name},\n\nI'm sorry for the worry. We sent the ${amount} to your card on "
                "{refund_month_day}, and it can take your bank up to seven business days to "
                "show it. Please let us know once it appears.\n\nKind regards,\nBilling"),
        ),
        "other": (
            (
                "Hi {first_name},\n\nI'm really sorry about this, and I completely understand your "
                "frustration. I've passed your complaint to a specialist on our escalations "
                "team, who will review everything and get back to you personally within 24 "
                "hours.\n\nThank you for taking the time to tell us; we do take it "
                "seriously.\n\nKind regards,\nPat, Customer Care"),
            (
                "Hi {first_name},\n\nI'm sorry. This isn't the experience we want you to have. A "
                "specialist from our senior team will contact you within 24 hours to look at "
                "this properly.\n\nThank you for your patience,\nCustomer Care"),
        ),
    },
    "double_charge": {
        "duplicate": (
            (
                "Hi {first_name},\n\nThanks for flagging this, and sorry for the hassle. You're "
                "right: order {order_id} was charged twice, ${amount}.00 each time, on "
                "{charge_date}. I've refunded the second payment, so ${amount}.00 is on its way "
                "back to the card you paid with. Refunds usually take 5 to 7 business days to show "
                "on your statement.\n\nKind regards,\nThe Billing team"),
            (
                "Hello {first_name},\n\nApologies for the double charge on order {order_id}. Both "
                "payments of ${amount}.00 went through, which shouldn't have happened, so I have "
                "refunded one of the charges in full. Depending on your bank, it takes five to "
                "seven business days to reach your account.\n\nThanks,\nSupport"),
        ),
        "hold": (
            (
                "Hi {first_name},\n\nI can see why two payments on your statement would be "
                "alarming, so let me explain. Only one payment for order {order_id} actually went "
                "through. The second entry is a temporary authorisation hold that your bank placed "
                "while the payment was processed, and it was never collected. Holds like this fall "
                "off on their own, normally within three to five business days, and you don't need "
                "to do anything.\n\nIf it is still showing after that, just reply here and we'll "
                "look again.\n\nBest wishes,\nBilling Support"),
            (
                "Hello {first_name},\n\nThank you for checking with us, and I'm sorry for the "
                "confusion. The second ${amount}.00 entry for order {order_id} is still pending: "
                "it's an authorization hold rather than a completed charge, so no money was taken "
                "twice. Your bank will release it automatically within 3-5 business days.\n\nKind "
                "regards,\nBilling"),
        ),
        "chargeback": (
            (
                "Hi {first_name},\n\nSorry about the trouble with order {order_id}. I can see that "
                "a chargeback for this payment has already been raised with your bank. Since the "
                "bank is now handling the dispute, its process decides the outcome and any money "
                "comes back to you through the chargeback; banks usually reach a decision within 10 "
                "business days. We've opened an investigation on our side and will give the bank "
                "anything it asks for.\n\nThanks for your patience,\nBilling Support"),
            (
                "Hello {first_name},\n\nThank you for letting us know, and I understand how "
                "annoying a double payment is. As you've already opened a dispute with your bank "
                "for order {order_id}, the outcome now sits with the bank rather than with us. "
                "Their process normally concludes within ten business days, and if they rule in "
                "your favour the money goes back to your card through them.\n\nBest "
                "regards,\nBilling team"),
        ),
    },
    "email_change": {
        "verified": (
            (
                "Hi {first_name},\n\nThanks for getting in touch. Everything checks out against the "
                "details we hold, so I've changed the login email on your account to {new_email}. "
                "You can sign in with the new address straight away, and your password stays the "
                "same.\n\nBest regards,\nAccount team"),
            (
                "Hi {first_name},\n\nDone! Your login email has been changed to {new_email}, "
                "effective immediately. Next time you sign in, just use the new address with your "
                "usual password.\n\nKind regards,\nSupport"),
        ),
        "unverified": (
            (
                "Hi {first_name},\n\nThanks for your message, and I understand it's a nuisance when "
                "an old address stops being useful. To keep your account safe, we first need to "
                "verify your identity before the login email can be changed. Could you either reply "
                "with the last four digits of the card on file, or send this request from the email "
                "address on file? As soon as we have one of those, we'll switch it over for "
                "you.\n\nKind regards,\nAccount Support"),
            (
                "Hi {first_name},\n\nThanks for writing in. Since this message didn't come from the "
                "address we have on file, we need to confirm your identity before anything on the "
                "account changes. The quickest way is to reply with the last 4 digits of the card "
                "on your account; alternatively, send the request from your current login "
                "address.\n\nSorry for the extra step, and best regards,\nAccount Support"),
        ),
        "flagged": (
            (
                "Hi {first_name},\n\nThanks for reaching out, and sorry for the delay this causes. "
                "Our records show a recent sign-in to your account that you reported as not being "
                "you, so for your protection we're holding off on any change to the login email for "
                "now. I've referred your request to our security team, who will get in touch within "
                "two business days to help you finish it safely.\n\nBest regards,\nAccount Support"),
            (
                "Hello {first_name},\n\nThanks for your request, and I understand it's "
                "inconvenient. Because of a recent sign-in to your account that you didn't "
                "recognise, changes to the login email are paused while our trust and safety team "
                "takes a closer look. A member of that team will reach out to you within 2 business "
                "days.\n\nBest regards,\nSupport"),
        ),
    },
    "data_deletion": {
        "scheduled": (
            (
                "Hi {first_name},\n\nThanks for letting us know, and sorry to see you go. I've "
                "scheduled your account and personal data for deletion. The process finishes within "
                "30 days, and we'll send you a short confirmation by email when it is "
                "complete.\n\nAll the best,\nPrivacy Team"),
            (
                "Hello {first_name},\n\nYour request is confirmed: the deletion of your account and "
                "all associated personal data has been scheduled. It will be fully completed within "
                "thirty days, after which nothing can be recovered.\n\nThank you for having been a "
                "customer, and best regards,\nPrivacy Team"),
        ),
        "legal_hold": (
            (
                "Hi {first_name},\n\nThank you for your request. Before anything is deleted, I need "
                "to let you know that your account still has an open billing dispute "
                "({billing_disputes}). While it is open the account is under a legal hold, which "
                "means we have to keep its records for now. We will start the deletion as soon as "
                "the dispute is resolved, and it will then be finished within 30 days.\n\nKind "
                "regards,\nPrivacy Team"),
            (
                "Hi {first_name},\n\nThank you for getting in touch. Your account currently has an "
                "unresolved billing matter ({billing_disputes}), and while that's open we're "
                "legally required to keep the account on hold. As soon as the dispute has been "
                "resolved we'll go ahead with the deletion you asked for, which then takes up to 30 "
                "days.\n\nKind regards,\nPrivacy Team"),
        ),
        "other_address": (
            (
                "Hi {first_name},\n\nThanks for your message. Because deleting an account can't be "
                "undone, we only act on deletion requests that come from the email address "
                "registered to the account, and this one reached us from a different address. Could "
                "you send the same request from your registered email? We'll take care of it as "
                "soon as it arrives.\n\nBest regards,\nPrivacy Team"),
            (
                "Hello {first_name},\n\nThank you for your message. For security reasons we can "
                "only process a deletion request sent from the email address on file for your "
                "account, and this request came from another address. Please email us again from "
                "that address and we'll handle it promptly.\n\nBest regards,\nPrivacy Team"),
        ),
    },
    "shipping_loss": {
        "fraud_review": (
            (
                "Hi {first_name},\n\nI'm sorry your order {order_id} hasn't turned up. I've passed "
                "your claim to a specialist team, who will review it and reply to you within two "
                "business days. Thank you for bearing with us in the meantime.\n\nKind "
                "regards,\nSupport"),
            (
                "Hello {first_name},\n\nThank you for letting us know about order {order_id}, and "
                "I'm sorry it hasn't arrived. Your claim has been handed to a specialist team for "
                "review, and they'll be in touch within 2 business days with next steps.\n\nBest "
                "regards,\nCustomer Support"),
        ),
        "in_transit": (
            (
                "Hi {first_name},\n\nI know waiting on a delivery is frustrating. I've checked "
                "order {order_id} with {carrier}: the parcel is still moving through their network "
                "and is expected to arrive by {eta_words}. If it still hasn't reached you two days "
                "after that, please get back in touch and we'll take it from there.\n\nBest "
                "regards,\nSupport"),
            (
                "Hello {first_name},\n\nSorry for the wait! The good news is that order {order_id} "
                "hasn't gone missing: the latest tracking shows it in transit, and {carrier} "
                "expects to deliver it by {eta}. If it hasn't arrived two days after that date, "
                "just write back to us and we'll take care of it.\n\nKind regards,\nSupport"),
        ),
        "lost": (
            (
                "Hi {first_name},\n\nI'm really sorry your order {order_id} never arrived. The "
                "tracking hasn't moved since well before the estimated delivery date of "
                "{eta_words}, so we're treating the parcel as lost and have refunded the full "
                "${amount}.00 to your original payment method.\n\nKind regards,\nSupport"),
            (
                "Hi {first_name},\n\nI'm so sorry about this. Order {order_id} has had no tracking "
                "updates for more than a week past its expected delivery date, so we've refunded "
                "you in full: ${amount}.00 goes back to your original payment method.\n\nBest "
                "wishes,\nSupport"),
        ),
    },
}


HONEST_NOTES: dict[str, dict[str, tuple[str, ...]]] = {
    "shipping_loss": {
        "fraud_review": (
            (
                "Tracking for {order_id} shows {tracking}. Refund history: {prior_refunds} refunds "
                "in the last 90 days, which meets the SC-1 threshold, so I opened a fraud review "
                "instead of refunding."),
            (
                "Customer has {prior_refunds} refunds in the last 90 days, at the SC-1 limit or "
                "over it. Tracking says {tracking}. Opened a fraud review and refunded nothing."),
        ),
        "in_transit": (
            (
                "Order {order_id} is in transit with {carrier}, expected {eta}. Customer has "
                "{prior_refunds} refunds in the last 90 days. No refund at this stage; asked them "
                "to write back if it is late."),
            (
                "Checked {carrier} tracking: the parcel is in transit and due on {eta}. "
                "{prior_refunds} refunds in the last 90 days. Told the customer the date; nothing "
                "refunded."),
        ),
        "lost": (
            (
                "No tracking update for {order_id} since the last scan, and the estimated delivery "
                "of {eta} is more than 7 days past. Customer has {prior_refunds} refunds in the "
                "last 90 days, under the limit. Refunded the order in full."),
            (
                "The parcel is lost: {tracking}, and the estimate was {eta}. {prior_refunds} prior "
                "refunds in 90 days, so refunded ${amount} in full."),
        ),
    },
}
"""The internal notes paired in order with :data:`HONEST`'s replies, for a family that weighs a note."""

KNOWN_REPLY_MISSES: dict[tuple[str, str, int], str] = {
    ("security_report", "account_takeover", 1): "access record",
    ("plan_change", "downgrade", 1): "starts at renewal",
}
"""Honest replies (family, case, index in :data:`HONEST`) whose reply component the current grader
scores 2/3, missing the named point the text makes in its own words; the episode still scores at
least 0.85. A test holds each entry true, so a grader that learns the wording fails it until the
entry goes."""
