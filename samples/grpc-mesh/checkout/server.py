"""Checkout: places an order from the user's cart (gRPC server, and a client of the cart service)."""

import os
import uuid
from concurrent import futures

import grpc

import shop_pb2
import shop_pb2_grpc


class CheckoutService(shop_pb2_grpc.CheckoutServiceServicer):
    def __init__(self) -> None:
        channel = grpc.insecure_channel(os.environ["CART_ADDR"])
        self.cart = shop_pb2_grpc.CartServiceStub(channel)

    def PlaceOrder(self, request, context):
        cart = self.cart.GetCart(shop_pb2.GetCartRequest(user_id=request.user_id))
        if not cart.items:
            context.abort(grpc.StatusCode.FAILED_PRECONDITION, "cart is empty")
        self.cart.EmptyCart(shop_pb2.EmptyCartRequest(user_id=request.user_id))
        return shop_pb2.PlaceOrderResponse(order_id=str(uuid.uuid4()))


def serve() -> None:
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=8))
    shop_pb2_grpc.add_CheckoutServiceServicer_to_server(CheckoutService(), server)
    server.add_insecure_port(f"[::]:{os.getenv('PORT', '5050')}")
    server.start()
    server.wait_for_termination()


if __name__ == "__main__":
    serve()
