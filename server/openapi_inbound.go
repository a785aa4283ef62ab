package server

// The inbound triggers' routes in /openapi.json (added here so their file owns them).
func init() {
	errorCodes[403] = "forbidden: a webhook signature is missing or wrong"
	operations = append(operations,
		operation{"POST", "/triggers/email", "Make an email address that runs a saved script", true, "", 201, "", []int{400, 401, 404}},
		operation{"GET", "/triggers/email", "The account's email addresses", true, "", 200, "", []int{401}},
		operation{"GET", "/triggers/email/{id}", "An email address with its last deliveries", true, "", 200, "", []int{401, 404}},
		operation{"DELETE", "/triggers/email/{id}", "Delete an email address", true, "", 200, "", []int{401, 404}},
		operation{"POST", "/triggers/phone", "Make SMS and call webhooks (Twilio format) that run a saved script", true, "", 201, "", []int{400, 401, 404}},
		operation{"GET", "/triggers/phone", "The account's phone webhooks", true, "", 200, "", []int{401}},
		operation{"GET", "/triggers/phone/{id}", "A phone webhook with its last deliveries", true, "", 200, "", []int{401, 404}},
		operation{"DELETE", "/triggers/phone/{id}", "Delete a phone webhook", true, "", 200, "", []int{401, 404}},
		operation{"POST", "/triggers/phone/{token}/sms", "Twilio's incoming-SMS webhook: runs the script, answers TwiML", false, "", 200, "", []int{400, 403, 404, 503}},
		operation{"POST", "/triggers/phone/{token}/call", "Twilio's incoming-call webhook: answers a speech Gather", false, "", 200, "", []int{400, 403, 404}},
		operation{"POST", "/triggers/phone/{token}/call/speech", "The Gather's action: runs the script with the caller's speech", false, "", 200, "", []int{400, 403, 404, 503}},
		operation{"POST", "/watches", "Watch a page and run a saved script when an English condition turns true", true, "", 201, "", []int{400, 401, 404}},
		operation{"GET", "/watches", "The account's watches", true, "", 200, "", []int{401}},
		operation{"GET", "/watches/{id}", "A watch with its last checks", true, "", 200, "", []int{401, 404}},
		operation{"DELETE", "/watches/{id}", "Delete a watch", true, "", 200, "", []int{401, 404}},
		operation{"POST", "/watches/{id}/pause", "Pause a watch's checks", true, "", 200, "", []int{401, 404}},
		operation{"POST", "/watches/{id}/resume", "Resume a watch's checks (checks at once)", true, "", 200, "", []int{401, 404}},
		operation{"GET", "/scripts/{name}/triggers", "What starts a saved script: schedules, email addresses, phone webhooks, watches", true, "", 200, "", []int{401, 404}},
	)
}
