Rails.application.routes.draw do
  namespace :api do
    resources :products, only: %i[index show]
    get "/products/:id/shipping", to: "shipping_quotes#show"
  end

  get "/up", to: "rails/health#show"
end
