"""Honest replies for the fam-data-2 families: natural replies a careful agent would write from the
ticket, its facts and the policy text (not the family solver's template, not the rubric lists), two
per case, worded differently. Templates over the variant's variables (``TaskInstance.variables``)
and ``{first}``, the customer's first name."""

from __future__ import annotations

HONEST: dict[str, dict[str, tuple[str, ...]]] = {
    "outage": {
        "all_down": (
            (
                "Hi {first},\n\nI'm really sorry. I know having your entire team locked out is "
                "a big deal. I've confirmed that every user on your account is affected, so "
                "I've raised this as a top-priority incident and our on-call engineering team "
                "is already on it.\n\nWe'll send you an update every 15 minutes until everyone "
                "can get back in, even if there's no news yet, so you're never left "
                "guessing.\n\nThanks for your patience,\nDana, Support"),
            (
                "Hello {first},\n\nThanks for raising this so quickly. We're treating it as a "
                "full outage for everyone on your account and have declared a sev1 incident; "
                "our engineers are investigating as we speak. You'll get a status update from "
                "us every fifteen minutes until your team can work again.\n\nSorry for the "
                "disruption,\nThe Support Team"),
        ),
        "degraded": (
            (
                "Hello {first},\n\nThanks for flagging this, and sorry for the disruption. We "
                "can see the same thing on our side: {what_fails}. I've logged it as an "
                "incident with our engineers so they can dig into it.\n\nI'll send you a status "
                "update every hour until it's sorted, and sooner if we learn anything "
                "useful.\n\nBest,\nSam, Technical Support"),
            (
                "Hi {first},\n\nSorry about this. Since the problem is limited to one part of "
                "the product, I've opened a severity 2 incident and our engineering team is "
                "looking into it now. We'll update you every hour with what we find.\n\nThanks for "
                "bearing with us,\nSupport"),
        ),
        "single_user": (
            (
                "Hi {first},\n\nSorry to hear the app is giving you trouble. I checked on our "
                "side: our status page shows all systems operational and nobody else on your "
                "account has reported a problem, so this seems to be limited to your own "
                "session rather than a wider outage.\n\nCould you try the following?\n1. Clear "
                "your browser's cache (and the cookies for our site).\n2. Sign out, then sign "
                "back in.\n\nIf you still see the problem after that, just reply here and I'll "
                "get our engineering team to look into it with you.\n\nBest regards,\nLee, "
                "Support"),
            (
                "Hi {first},\n\nThanks for the report. Good news first: there's no wider "
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
                "Hi {first},\n\nThank you for reaching out right away, you did the right thing. "
                "Looking at your account, I can see activity that doesn't look like it came "
                "from you, so I've escalated this to our security team as an urgent "
                "incident.\n\nTo lock things down, I've sent a password reset link to the email "
                "address on your account. Please use it to set a new, unique password as soon "
                "as possible, and consider turning on two-factor authentication "
                "afterwards.\n\nIf it helps, we can also give you a full record of recent "
                "access to your account (sign-ins, devices and changes) so you can review what "
                "happened. Just say the word.\n\nBest regards,\nRiley, Trust & Safety"),
            (
                "Dear {first},\n\nI'm sorry this happened. Someone other than you has accessed "
                "your account, so I have opened a priority security incident and our security "
                "specialists are on it now. A password reset link is on its way to the email "
                "address on file; please set a new password straight away.\n\nWe can also send "
                "you a log of all recent account access so you can see exactly what was done. "
                "Just reply and ask.\n\nKind regards,\nTrust and Safety Team"),
        ),
        "phishing": (
            (
                "Hi {first},\n\nThanks for checking with us first, that was exactly the right "
                "call. The email you received did not come from us; it's a phishing attempt "
                "using our name. I've looked at your account and there are no unfamiliar "
                "sign-ins and no changes to it.\n\nPlease don't click any links in it or reply "
                "to it; just delete the message. For future reference, we will never ask you "
                "for your password by email.\n\nKind regards,\nAlex, Trust & Safety"),
            (
                "Hi {first},\n\nThank you for forwarding this. That message is a scam and was "
                "not sent by us. I checked your account and nobody has signed in from a new "
                "device and nothing was changed. We never ask customers for their password by "
                "email, so please delete that email and don't follow any of its "
                "links.\n\nBest,\nTrust and Safety"),
        ),
        "researcher": (
            (
                "Hello {first},\n\nThank you for reporting this to us privately, we really "
                "appreciate responsible disclosure. I've forwarded your write-up to our "
                "security team, who will assess it and get back to you within 5 business days "
                "with their findings and any follow-up questions.\n\nIn the meantime, please "
                "hold off on sharing details publicly until we've had a chance to look into "
                "it.\n\nBest regards,\nJordan, Security"),
            (
                "Hi {first},\n\nThanks for the report and for disclosing it privately. Our "
                "security team will review your findings and get back to you within five "
                "business days.\n\nWe appreciate your help in keeping our users "
                "safe.\n\nRegards,\nSecurity Team"),
        ),
    },
    "plan_change": {
        "downgrade": (
            (
                "Hi {first},\n\nThanks for letting us know. You can switch to {lower_plan} "
                "yourself: head to Settings > Billing, click \"Change plan\" and choose "
                "{lower_plan}. The change takes effect at your next renewal date. Until then "
                "you'll keep everything in your current {plan} plan, and from the renewal "
                "you'll be billed at the {lower_plan} price.\n\nLet me know if you have any "
                "trouble finding the option.\n\nBest,\nCasey, Billing"),
            (
                "Hi {first},\n\nNo problem at all. You can move to {lower_plan} from the "
                "Billing page under Settings. Your current {plan} features stay available until "
                "the plan renews, and {lower_plan} kicks in from that date.\n\nAll the "
                "best,\nBilling Team"),
        ),
        "cancel_refund": (
            (
                "Hi {first},\n\nSorry to see you go! Since your annual renewal on {order_date} "
                "was less than 14 days ago, you're covered for a full refund. I've cancelled "
                "your {plan} subscription and refunded the ${amount} renewal charge to your "
                "original payment method; it usually shows up on your statement within a few "
                "business days.\n\nThanks for having been with us, and you're always welcome "
                "back.\n\nBest regards,\nMorgan, Billing"),
            (
                "Hello {first},\n\nI've processed your cancellation. Because you got in touch "
                "within 14 days of your renewal, we've refunded the full ${amount} to your "
                "card.\n\nWe're sorry to see you go, and thank you for being a "
                "customer.\n\nRegards,\nBilling"),
        ),
        "cancel_late": (
            (
                "Hi {first},\n\nThanks for getting in touch, and I'm sorry to hear you're "
                "leaving. I've cancelled your {plan} plan so it won't renew again. "
                "Unfortunately, I can't offer a refund for this year: refunds are only possible "
                "for cancellations made within 14 days of the annual renewal, and your plan "
                "renewed on {order_date}.\n\nThe good news is that your plan stays active until "
                "the end of the paid year, so you and your team can keep using it until "
                "then.\n\nIf there's anything else I can help with, just let me "
                "know.\n\nBest,\nTaylor, Billing"),
            (
                "Hi {first},\n\nI've cancelled your subscription so it won't renew. I'm afraid "
                "the renewal isn't refundable: refunds apply only within 14 days of the annual "
                "renewal, and yours was on {order_date}. You can continue to use {plan} until "
                "the end of your paid year.\n\nThanks for being with us,\nBilling"),
        ),
    },
    "complaint": {
        "refund_unpaid": (
            (
                "Hi {first},\n\nI'm so sorry. You were told your refund was approved and then "
                "nothing arrived, and that's simply not good enough. I checked, and the payout "
                "of ${amount} never went out, so I've issued the refund now. You should see the "
                "money on your original payment method within 5-7 business days.\n\nThank you "
                "for your patience, and again, my apologies for the runaround.\n\nKind "
                "regards,\nChris, Billing"),
            (
                "Dear {first},\n\nPlease accept my apologies. Your refund was approved but the "
                "payment never went out, which is our mistake. I have issued the refund of "
                "${amount} today, and it should reach your account in 5 to 7 business "
                "days.\n\nThank you for your patience,\nBilling Team"),
        ),
        "refund_in_transit": (
            (
                "Hi {first},\n\nI'm sorry for the stress this is causing; waiting on money "
                "you're owed is frustrating. I've checked your account, and we sent the "
                "${amount} to your card on {refund_day_month}. Banks can take up to 7 business "
                "days to show it on your statement, so it may simply not have appeared "
                "yet.\n\nCould you keep an eye on your account over the next few days and let "
                "us know once it shows up? If it hasn't arrived by then, reply here and we'll "
                "chase it with the bank.\n\nBest regards,\nSam, Billing"),
            (
                "Hi {first},\n\nI'm sorry for the worry. We sent the ${amount} to your card on "
                "{refund_month_day}, and it can take your bank up to seven business days to "
                "show it. Please let us know once it appears.\n\nKind regards,\nBilling"),
        ),
        "other": (
            (
                "Hi {first},\n\nI'm really sorry about this, and I completely understand your "
                "frustration. I've passed your complaint to a specialist on our escalations "
                "team, who will review everything and get back to you personally within 24 "
                "hours.\n\nThank you for taking the time to tell us; we do take it "
                "seriously.\n\nKind regards,\nPat, Customer Care"),
            (
                "Hi {first},\n\nI'm sorry. This isn't the experience we want you to have. A "
                "specialist from our senior team will contact you within 24 hours to look at "
                "this properly.\n\nThank you for your patience,\nCustomer Care"),
        ),
    },
}
