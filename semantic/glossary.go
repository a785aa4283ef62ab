package semantic

import "strings"

// People write targets in English on pages in other languages: "proceed to checkout" on a
// German shop whose button says "Zur Kasse", "the grand total" beside "Gesamtsumme". A model
// translates; the heuristic needs no model, so it carries the words shops, forms, account
// pages and dialogs use most, in German, French, Spanish, Italian, Dutch and Portuguese, as
// the English words a description would use. The stemmer reads a page's (and a
// description's) foreign word as those English words, so "Entfernen" is "remove" on both
// sides of every comparison, and a quoted foreign name ("click \"Zur Kasse\"") still matches
// itself. A compound that says two things ("Versandkosten", "Gutscheincode") becomes both.
//
// Only interface words are here, the vocabulary a site's chrome shares with every other
// site; what it sells ("Handmühle", "Äthiopien") is the model's to translate. A word that is
// also English ("commander", "article", "land", "plus", "non") is left out: an English page
// must read as it did.
var foreignWords = map[string]string{
	// German.
	"warenkorb": "cart", "einkaufswagen": "cart", "kasse": "checkout", "bezahlen": "pay", "zahlung": "payment",
	"zahlungsart": "payment method", "zahlungsmethode": "payment method", "entfernen": "remove", "löschen": "delete",
	"menge": "quantity", "anzahl": "quantity", "stück": "quantity", "versand": "shipping", "versandkosten": "shipping cost",
	"lieferung": "delivery", "lieferadresse": "delivery address", "rechnungsadresse": "billing address",
	"gesamtsumme": "grand total", "gesamtbetrag": "total amount", "gesamt": "total", "summe": "total",
	"zwischensumme": "subtotal", "betrag": "amount", "preis": "price", "gutschein": "voucher",
	"gutscheincode": "voucher code", "rabatt": "discount", "rabattcode": "discount code", "einlösen": "redeem",
	"anwenden": "apply", "suche": "search", "suchen": "search", "sprache": "language", "hilfe": "help",
	"konto": "account", "kundenkonto": "account", "anmelden": "sign in", "abmelden": "sign out",
	"registrieren": "register", "passwort": "password", "kennwort": "password", "benutzername": "username",
	"weiter": "continue", "zurück": "back", "abbrechen": "cancel", "schließen": "close", "speichern": "save",
	"bestätigen": "confirm", "absenden": "submit", "senden": "send", "bearbeiten": "edit", "hinzufügen": "add",
	"merkliste": "wishlist", "wunschliste": "wishlist", "einstellungen": "settings", "bestellung": "order",
	"bestellen": "order", "bestellungen": "orders", "rechnung": "invoice", "adresse": "address", "straße": "street",
	"stadt": "city", "postleitzahl": "postcode", "plz": "postcode", "telefon": "phone", "vorname": "first name",
	"nachname": "last name", "geschenk": "gift", "kostenlos": "free", "gratis": "free", "artikel": "items",
	"filtern": "filter", "sortieren": "sort", "kaufen": "buy", "abonnieren": "subscribe", "datum": "date",
	"uhrzeit": "time", "mehr": "more", "anzeigen": "show", "herunterladen": "download", "hochladen": "upload",
	// French.
	"panier": "cart", "caisse": "checkout", "paiement": "payment", "payer": "pay", "supprimer": "delete",
	"retirer": "remove", "quantité": "quantity", "livraison": "delivery", "expédition": "shipping",
	"montant": "amount", "prix": "price", "réduction": "discount", "remise": "discount", "rechercher": "search",
	"recherche": "search", "langue": "language", "aide": "help", "compte": "account", "connexion": "sign in",
	"connecter": "sign in", "déconnexion": "sign out", "inscription": "register", "identifiant": "username",
	"suivant": "next", "précédent": "previous", "retour": "back", "annuler": "cancel", "fermer": "close",
	"enregistrer": "save", "valider": "confirm", "confirmer": "confirm", "envoyer": "send", "modifier": "edit",
	"ajouter": "add", "paramètres": "settings", "facture": "invoice", "ville": "city", "téléphone": "phone",
	"prénom": "first name", "cadeau": "gift", "gratuit": "free", "gratuite": "free", "filtrer": "filter",
	"trier": "sort", "acheter": "buy", "favoris": "favorites", "télécharger": "download", "commande": "order",
	// Spanish.
	"carrito": "cart", "cesta": "basket", "pedido": "order", "pagar": "pay", "pago": "payment",
	"eliminar": "delete", "quitar": "remove", "borrar": "delete", "cantidad": "quantity", "envío": "shipping",
	"entrega": "delivery", "importe": "amount", "precio": "price", "cupón": "coupon", "descuento": "discount",
	"buscar": "search", "búsqueda": "search", "idioma": "language", "ayuda": "help", "cuenta": "account",
	"contraseña": "password", "usuario": "user", "siguiente": "next", "volver": "back", "atrás": "back",
	"cancelar": "cancel", "cerrar": "close", "guardar": "save", "confirmar": "confirm", "enviar": "send",
	"editar": "edit", "añadir": "add", "agregar": "add", "configuración": "settings", "ajustes": "settings",
	"factura": "invoice", "dirección": "address", "ciudad": "city", "teléfono": "phone", "nombre": "name",
	"apellido": "last name", "apellidos": "last name", "regalo": "gift", "filtrar": "filter", "ordenar": "sort",
	"fecha": "date", "hora": "time", "comprar": "buy", "favoritos": "favorites", "descargar": "download",
	// Italian.
	"carrello": "cart", "cassa": "checkout", "ordine": "order", "pagare": "pay", "pagamento": "payment",
	"elimina": "delete", "rimuovi": "remove", "quantità": "quantity", "spedizione": "shipping",
	"consegna": "delivery", "totale": "total", "prezzo": "price", "sconto": "discount", "cerca": "search",
	"lingua": "language", "aiuto": "help", "accedi": "sign in", "esci": "sign out", "registrati": "register",
	"avanti": "next", "indietro": "back", "annulla": "cancel", "chiudi": "close", "salva": "save",
	"conferma": "confirm", "invia": "send", "modifica": "edit", "aggiungi": "add", "impostazioni": "settings",
	"fattura": "invoice", "indirizzo": "address", "città": "city", "telefono": "phone", "nome": "name",
	"cognome": "last name", "gratuito": "free", "acquista": "buy", "preferiti": "favorites",
	// Dutch.
	"winkelwagen": "cart", "winkelmandje": "basket", "afrekenen": "checkout", "bestelling": "order",
	"betalen": "pay", "verwijderen": "remove", "aantal": "quantity", "verzending": "shipping",
	"verzendkosten": "shipping cost", "bezorging": "delivery", "levering": "delivery", "totaal": "total",
	"prijs": "price", "korting": "discount", "zoeken": "search", "taal": "language", "hulp": "help",
	"inloggen": "sign in", "uitloggen": "sign out", "wachtwoord": "password", "volgende": "next",
	"vorige": "previous", "terug": "back", "annuleren": "cancel", "sluiten": "close", "opslaan": "save",
	"bevestigen": "confirm", "versturen": "send", "verzenden": "send", "bewerken": "edit", "toevoegen": "add",
	"instellingen": "settings", "factuur": "invoice", "adres": "address", "kopen": "buy",
	// Portuguese.
	"carrinho": "cart", "remover": "remove", "excluir": "delete",
	"quantidade": "quantity", "frete": "shipping", "preço": "price", "desconto": "discount",
	"pesquisar": "search", "ajuda": "help", "conta": "account", "entrar": "sign in", "sair": "sign out",
	"senha": "password", "próximo": "next", "voltar": "back", "fechar": "close", "salvar": "save",
	"adicionar": "add", "configurações": "settings", "endereço": "address", "cidade": "city",
}

// foreignStems is foreignWords as stemAs holds them: each word's English words stemmed, joined
// by a space (tokens splits them).
func foreignStems() map[string]string {
	m := make(map[string]string, len(foreignWords))
	for w, en := range foreignWords {
		var st []string
		for _, e := range strings.Fields(en) {
			st = append(st, stemRules(e))
		}
		m[w] = strings.Join(st, " ")
	}
	return m
}
